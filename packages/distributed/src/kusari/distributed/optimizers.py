"""Multi-node optimizers: an optimizer whose update first averages the
gradients over all processes."""
from kusari.distributed.communicators import _overlap


def _layout(link):
    return [(path, param.shape)
            for path, param in link.namedparams(include_uninit=False)]


class _MultiNodeOptimizer:
    """Wraps an optimizer: every attribute but the ones below is the
    wrapped optimizer's, so hooks, hyperparameters and serialization work
    as on it."""

    _own = frozenset({'actual_optimizer', 'communicator', 'zero_fill',
                      'double_buffering', 'overlap', '_synced_layout',
                      '_pending', '_overlap'})

    def __init__(self, actual_optimizer, communicator, double_buffering,
                 zero_fill, overlap):
        self.actual_optimizer = actual_optimizer
        self.communicator = communicator
        self.double_buffering = double_buffering
        self.zero_fill = zero_fill
        self.overlap = overlap
        self._synced_layout = None
        self._pending = None
        self._overlap = None
        if actual_optimizer.target is not None:
            self._synchronize(actual_optimizer.target)

    def __getattr__(self, name):
        if name in self._own:  # not set yet (copying, unpickling)
            raise AttributeError(name)
        return getattr(self.actual_optimizer, name)

    def __setattr__(self, name, value):
        if name in self._own:
            object.__setattr__(self, name, value)
        else:
            setattr(self.actual_optimizer, name, value)

    def setup(self, link):
        """Set the wrapped optimizer up on ``link`` and give every process
        rank 0's parameters (a collective call)."""
        self.actual_optimizer.setup(link)
        self._synchronize(link)
        return self

    def _synchronize(self, link):
        if self._overlap is not None:
            self._overlap.close()
            self._overlap = None
        self.communicator.bcast_data(link)
        self._synced_layout = _layout(link)
        self._pending = None
        if self.overlap:
            self._overlap = _overlap.BackwardOverlap(self.communicator, link)

    def update(self, lossfun=None, *args, **kwds):
        """Compute the gradients (with ``lossfun``), average them over the
        processes, and update as the wrapped optimizer does.

        Parameters initialized since the last broadcast (a link with lazy
        input size, after its first forward) are first broadcast from rank
        0 instead, and that update is skipped: its gradients were computed
        from parameters that differed across processes.
        """
        target = self.actual_optimizer.target
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            target.cleargrads()
            loss.backward(loss_scale=self.actual_optimizer._loss_scale)
            del loss
        if _layout(target) != self._synced_layout:
            self._synchronize(target)
            return
        if self._overlap is not None:
            self._overlap.finish()
            self.actual_optimizer.update()
            return
        if not self.double_buffering:
            self.communicator.multi_node_mean_grad(target, self.zero_fill)
            self.actual_optimizer.update()
            return
        previous = self._pending
        self._pending = self.communicator._start_mean_grad(
            target, self.zero_fill, 'multi_node_mean_grad')
        if previous is not None:
            previous()
            self.actual_optimizer.update()


def create_multi_node_optimizer(actual_optimizer, communicator,
                                double_buffering=False, zero_fill=True, *,
                                overlap=None):
    """Make an optimizer that averages the gradients over all processes
    before each update.

    Args:
        actual_optimizer: The optimizer (e.g. ``optimizers.Adam()``); if
            it is set up already, rank 0's parameters are broadcast now
            (a collective call).
        communicator: The communicator.
        double_buffering (bool): Overlap the averaging with the next
            forward and backward: each update applies the mean gradients of
            the previous one (so the first update changes nothing). This
            can change the accuracy reached.
        zero_fill (bool): Give parameters without a gradient a zero one so
            that they take part (see
            :meth:`~CommunicatorBase.multi_node_mean_grad`).
        overlap (bool): Overlap the averaging with backward, as PyTorch's
            DistributedDataParallel does: each bucket of layers starts
            its (nonblocking) reduction as soon as backward has made its
            gradients final, and the update waits for them all; the
            results are those of averaging after backward. Default: on
            where the communicator can (those of
            :func:`create_communicator`), unless ``double_buffering`` or
            not ``zero_fill``, with which it cannot be used. Gradients
            must not be changed in place between backward and the
            update (what an optimizer hook does is fine).

    Returns:
        An optimizer that behaves as ``actual_optimizer`` except that
        :meth:`setup` broadcasts rank 0's parameters and :meth:`update`
        averages the gradients first.
    """
    if double_buffering and not hasattr(communicator, '_start_mean_grad'):
        raise ValueError(
            f'create_multi_node_optimizer: double_buffering needs a '
            f'communicator that averages without blocking (naive, flat or '
            f'pure_nccl), got {type(communicator).__name__}')
    can_overlap = hasattr(communicator, '_start_grad_mean')
    if overlap is None:
        overlap = can_overlap and zero_fill and not double_buffering
    elif overlap and not (can_overlap and zero_fill and
                          not double_buffering):
        raise ValueError(
            f'create_multi_node_optimizer: overlap needs a communicator '
            f'that averages without blocking (naive, flat, non_cuda_aware, '
            f'pure_nccl or dummy), zero_fill=True and no double_buffering; '
            f'got {type(communicator).__name__}, zero_fill={zero_fill}, '
            f'double_buffering={double_buffering}')
    return _MultiNodeOptimizer(actual_optimizer, communicator,
                               double_buffering, zero_fill, overlap)
