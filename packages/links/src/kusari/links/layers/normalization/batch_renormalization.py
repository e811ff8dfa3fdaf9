"""Batch renormalization layer."""
from kusari.array import configuration
from kusari.autograd.functions.normalization import batch_normalization
from kusari.autograd.functions.normalization import batch_renormalization
from kusari.links.layers.normalization import batch_normalization as bn_link


class BatchRenormalization(bn_link.BatchNormalization):
    """Batch renormalization layer (Ioffe, 2017): in training, batch
    normalization corrected towards the running statistics by the factors
    ``r`` (clipped to ``[1/rmax, rmax]``) and ``d`` (clipped to ``[-dmax,
    dmax]``); see :func:`~kusari.autograd.functions.batch_renormalization`.
    In inference it is :class:`BatchNormalization`.

    Args:
        size (int or tuple of ints): The shape of gamma and beta.
        rmax (float): The bound of r (1 gives batch normalization).
        dmax (float): The bound of d (0 gives batch normalization).
        decay, eps, dtype, use_gamma, use_beta, initial_gamma,
            initial_beta, initial_avg_mean, initial_avg_var: As in
            :class:`BatchNormalization` (``dtype`` None: the configured
            dtype).
        freeze_running_statistics (bool): Leave the running statistics
            unchanged in training.
    """

    def __init__(self, size, rmax=1, dmax=0, decay=0.9, eps=2e-5,
                 dtype=None, use_gamma=True, use_beta=True,
                 initial_gamma=None, initial_beta=None,
                 initial_avg_mean=None, initial_avg_var=None,
                 freeze_running_statistics=False):
        super().__init__(size, decay, eps, dtype, use_gamma, use_beta,
                         initial_gamma, initial_beta,
                         initial_avg_mean=initial_avg_mean,
                         initial_avg_var=initial_avg_var)
        self.rmax = rmax
        self.dmax = dmax
        self.freeze_running_statistics = freeze_running_statistics

    def forward(self, x, finetune=False):
        """Renormalize ``x`` (in training) or normalize it with the running
        statistics; ``finetune`` as in :class:`BatchNormalization`."""
        gamma, beta = self._scale_and_shift()
        if not configuration.config.train:
            return batch_normalization.fixed_batch_normalization(
                x, gamma, beta, self.avg_mean, self.avg_var, self.eps)
        recomputing = configuration.config.in_recomputing
        update = not (self.freeze_running_statistics or recomputing)
        decay = bn_link.running_decay(self, finetune) if update \
            else self.decay
        # r and d depend on the running statistics: a recomputation (by
        # F.forget) must see them as the first pass did, before it updated
        # them.
        running = self.avg_mean, self.avg_var
        if recomputing:
            running = getattr(self, '_running_before_update', running)
        elif update and getattr(configuration.config, '_will_recompute',
                                False):
            self._running_before_update = tuple(a.copy() for a in running)
        return batch_renormalization.batch_renormalization(
            x, gamma, beta, self.rmax, self.dmax, self.eps, *running, decay,
            update_statistics=update)
