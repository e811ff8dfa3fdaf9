"""Batch renormalization: batch normalization corrected towards the
running statistics."""
import warnings

from kusari.array import backend
from kusari.array import configuration
from kusari.autograd.functions.normalization import batch_normalization \
    as batch_norm
from kusari.autograd.functions.normalization import _standardization
from kusari.autograd.utils import type_check


class BatchRenormalization(_standardization.Standardization):
    """y = gamma * (r x_hat + d) + beta, where x_hat is standardized with
    the batch statistics and

    r = clip(sigma_batch / sigma_running, 1/rmax, rmax),
    d = clip((mu_batch - mu_running) / sigma_running, -dmax, dmax)

    are treated as constants by the gradient (as the method prescribes).
    It is a standardization whose effective gamma is ``gamma * r`` and
    effective beta ``gamma * d + beta``.
    """

    r = d = None

    def __init__(self, stat_axes, key_axes, eps, rmax, dmax, running_mean,
                 running_var, decay, update_statistics):
        super().__init__(stat_axes, key_axes, eps)
        self.rmax = rmax
        self.dmax = dmax
        self.running_mean = running_mean
        self.running_var = running_var
        self.decay = decay
        self.update_statistics = update_statistics

    def scale_shift(self, gamma, beta):
        xp = backend.get_array_module(gamma)
        mean = self.mean.reshape(gamma.shape)
        running_inv_std = _standardization.inverse_std(
            self.running_var.astype(mean.dtype, copy=False), self.eps)
        # Fresh arrays, updated in place (0-d ones too).
        r = self.inv_std.reshape(gamma.shape).copy()
        xp.reciprocal(r, out=r)  # the batch std
        r *= running_inv_std
        xp.clip(r, 1.0 / self.rmax, self.rmax, out=r)
        d = mean.copy()
        d -= self.running_mean
        d *= running_inv_std
        xp.clip(d, -self.dmax, self.dmax, out=d)
        self.r = r.astype(gamma.dtype, copy=False)
        self.d = d.astype(gamma.dtype, copy=False)
        if self.update_statistics and self.count:
            batch_norm.update_running(self.running_mean, mean, self.decay)
            batch_norm.update_running(
                self.running_var, self.var.reshape(gamma.shape), self.decay,
                batch_norm.unbiased_factor(self.count))
        return gamma * self.r, gamma * self.d + beta

    def backward(self, indexes, grad_outputs):
        x, gamma = self.get_retained_inputs()
        gx, ggamma, gbeta = self.gradients(x, gamma * self.r,
                                           grad_outputs[0])
        return gx, ggamma * self.r + gbeta * self.d, gbeta


@type_check.checks_inputs
def batch_renormalization(x, gamma, beta, rmax, dmax, eps=2e-5,
                          running_mean=None, running_var=None, decay=0.9,
                          update_statistics=False):
    """Batch renormalization (Ioffe, 2017).

    Computes :math:`y = \\gamma (r \\hat{x} + d) + \\beta`, where
    :math:`\\hat{x}` is x standardized with the batch statistics (as in
    :func:`batch_normalization`) and
    :math:`r = \\mathrm{clip}(\\sigma_B / \\sigma, 1/r_{max}, r_{max})`,
    :math:`d = \\mathrm{clip}((\\mu_B - \\mu) / \\sigma, -d_{max},
    d_{max})` correct it towards the running statistics :math:`\\mu`,
    :math:`\\sigma^2` (``running_mean``, ``running_var`` + eps). The
    gradient treats r and d as constants.

    Args:
        x: Variable or array, float, of shape ``(N, *gamma.shape, ...)``.
        gamma, beta: Variables or arrays, the scale and the shift.
        rmax (float): the bound of r, at least 1.
        dmax (float): the bound of d, at least 0.
        eps (float): added to the variances, for stability.
        running_mean, running_var: arrays of gamma's shape (required).
        decay (float): the decay of the running statistics.
        update_statistics (bool): update ``running_mean`` and
            ``running_var`` in place as :func:`batch_normalization` does;
            by default they are left unchanged.

    Returns:
        Variable of x's shape and dtype.

    It is for training only, as in Chainer: with ``config.train`` off it
    raises (inference uses :func:`fixed_batch_normalization`).
    """
    if not configuration.config.train:
        raise RuntimeError(
            'batch_renormalization: works in training only (config.train '
            'is False); use fixed_batch_normalization for inference')
    if running_mean is None or running_var is None:
        raise TypeError('batch_renormalization: running_mean and '
                        'running_var are required')
    batch_norm.check_running('batch_renormalization', gamma,
                             running_mean=running_mean,
                             running_var=running_var)
    if rmax < 1:
        raise ValueError(f'batch_renormalization: rmax must be at least 1, '
                         f'got {rmax}')
    if dmax < 0:
        raise ValueError(f'batch_renormalization: dmax must be at least 0, '
                         f'got {dmax}')
    stat_axes, key_axes = batch_norm.batch_axes(
        'batch_renormalization', x.ndim, gamma.ndim, None)
    y, = BatchRenormalization(
        stat_axes, key_axes, eps, rmax, dmax, running_mean, running_var,
        decay, update_statistics).apply((x, gamma, beta))
    return y


@type_check.checks_inputs
def fixed_batch_renormalization(x, gamma, beta, mean, var, eps=2e-5):
    """Batch renormalization for inference: deprecated, the same as
    :func:`fixed_batch_normalization` (which it calls, with
    ``config.train`` off)."""
    # (stacklevel: the caller, past the checks_inputs wrapper)
    warnings.warn('fixed_batch_renormalization is deprecated; use '
                  'fixed_batch_normalization instead', DeprecationWarning,
                  stacklevel=3)
    with configuration.using_config('train', False):
        return batch_norm.fixed_batch_normalization(x, gamma, beta, mean,
                                                    var, eps)
