"""Batch normalization, with batch statistics or with given ones."""
import warnings

import numpy

from kusari.array import backend
from kusari.array import cuda
from kusari.autograd import function_node
from kusari.autograd.functions.array.cast import cast
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.math.sqrt import rsqrt
from kusari.autograd.functions.math.sum import normalize_axis
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.functions.noise._arguments import reject_removed
from kusari.autograd.functions.normalization import _standardization
from kusari.autograd.graph_optimizations.static_graph import static_code
from kusari.autograd.utils import type_check


def batch_axes(func_name, x_ndim, gamma_ndim, axis):
    """(statistics axes, parameter axes) of a batch normalization.

    By default the statistics are taken over the batch axis and the axes
    after those gamma spans (which follow the batch axis); an ``axis``
    argument (an int or a tuple) names the statistics axes instead, and
    gamma spans the others.
    """
    if axis is None:
        key_axes = tuple(range(1, 1 + gamma_ndim))
        return (0,) + tuple(range(1 + gamma_ndim, x_ndim)), key_axes
    axis = normalize_axis(func_name, axis)
    for a in axis:
        if not -x_ndim <= a < x_ndim:
            raise ValueError(f'{func_name}: axis {a} is out of range for x '
                             f'of {x_ndim} dimensions')
    stat_axes = tuple(sorted(a % x_ndim for a in axis))
    if len(set(stat_axes)) != len(stat_axes):
        raise ValueError(f'{func_name}: axis {axis} names an axis twice')
    return stat_axes, _standardization.other_axes(x_ndim, stat_axes)


def _warn_single_sample(x_shape, stat_axes):
    """Warn batch_normalization's caller (past batch_normalization and its
    checks_inputs wrapper) of statistics over one value."""
    if all(x_shape[a] == 1 for a in stat_axes):
        warnings.warn(
            'batch_normalization: every axis the statistics are taken over '
            'has length one, so the output is all zeros (beta); is it '
            'running with config.train on during evaluation?', UserWarning,
            stacklevel=4)


def check_running(func_name, gamma, **running):
    """Raise ValueError unless each given running statistic is a float
    array of gamma's shape (it is updated in place)."""
    for name, array in running.items():
        if array is None:
            continue
        if not hasattr(array, 'shape') or array.shape != gamma.shape or \
                array.dtype.kind != 'f':
            got = (f'{array.shape} {array.dtype}' if hasattr(array, 'shape')
                   else type(array).__name__)
            raise ValueError(f'{func_name}: {name} must be a float array of '
                             f"gamma's shape {gamma.shape}, got {got}")


def update_running(running, value, decay, adjust=1.0):
    """``running = decay * running + (1 - decay) * adjust * value``, in
    place (value is cast to running's dtype)."""
    if running is None:
        return
    xp = backend.get_array_module(running)
    running *= decay
    running += xp.asarray(value * ((1 - decay) * adjust),
                          dtype=running.dtype)


def unbiased_factor(count):
    """m / (m - 1) for m = count values per statistic (1 where m <= 1):
    turns the biased batch variance into the unbiased estimate."""
    return count / max(count - 1, 1)


class BatchNormalization(_standardization.Standardization):
    """Batch normalization with the statistics of the batch."""


class FixedBatchNormalization(function_node.FunctionNode):
    """y = gamma * (x - mean) / sqrt(var + eps) + beta with given mean and
    var; differentiable w.r.t. all five inputs, to any order."""

    def __init__(self, key_axes, eps):
        self.key_axes = key_axes
        self.eps = eps

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'gamma', 'beta', 'mean', 'var'))
        _standardization.expect_parameters(in_types[:3], self.key_axes)
        _, gamma_type, _, mean_type, var_type = in_types
        type_check.expect(
            mean_type.dtype == gamma_type.dtype,
            var_type.dtype == gamma_type.dtype,
            mean_type.shape == gamma_type.shape,
            var_type.shape == gamma_type.shape,
        )

    def _scale_shift(self, x, gamma, beta, mean, var):
        """Per-feature scale and shift, broadcastable against x, so that
        y = x * scale + shift."""
        dtype = _standardization.compute_dtype(x.dtype)
        inv_std = _standardization.inverse_std(
            var.astype(dtype, copy=False), self.eps)
        scale = inv_std * gamma
        shift = beta - mean * scale
        shape = _standardization.broadcast_shape(x.shape, self.key_axes)
        return (scale.astype(dtype, copy=False).reshape(shape),
                shift.astype(dtype, copy=False).reshape(shape))

    def forward_cpu(self, inputs):
        x = inputs[0]
        self.retain_inputs((0, 1, 3, 4))
        scale, shift = self._scale_shift(*inputs)
        y = numpy.multiply(x, scale, dtype=scale.dtype)
        y += shift
        return y.astype(x.dtype, copy=False),

    def forward_gpu(self, inputs):
        x = inputs[0]
        self.retain_inputs((0, 1, 3, 4))
        scale, shift = self._scale_shift(*inputs)
        return cuda.elementwise(
            'T x, U scale, U shift', 'T y', 'y = (T)((U)x * scale + shift)',
            'kusari_fixed_batch_normalization_fwd')(x, scale, shift),

    def backward(self, indexes, grad_outputs):
        x, gamma, mean, var = self.get_retained_inputs()
        gy, = grad_outputs
        if gamma.dtype != x.dtype:
            gamma, mean, var = [cast(p, x.dtype) for p in (gamma, mean, var)]
        shape = _standardization.broadcast_shape(x.shape, self.key_axes)
        param_axes = _standardization.other_axes(x.ndim, self.key_axes)
        inv_std = rsqrt(var + self.eps)
        scale = gamma * inv_std
        ret = {}
        if 0 in indexes:
            ret[0] = gy * reshape(scale, shape)
        if 1 in indexes or 4 in indexes:
            x_hat = (x - reshape(mean, shape)) * reshape(inv_std, shape)
            ggamma = sum_(gy * x_hat, axis=param_axes)
            ret[1] = ggamma
            ret[4] = ggamma * scale * inv_std * -0.5
        if 2 in indexes or 3 in indexes:
            gbeta = sum_(gy, axis=param_axes)
            ret[2] = gbeta
            ret[3] = -gbeta * scale
        dtype = self.inputs[1].dtype
        return tuple([_as_dtype(ret[i], dtype) if i else ret[i]
                      for i in indexes])


def _as_dtype(g, dtype):
    return g if g.dtype == dtype else cast(g, dtype)


@type_check.checks_inputs
def batch_normalization(x, gamma, beta, *, eps=2e-5, running_mean=None,
                        running_var=None, decay=0.9, axis=None, **kwargs):
    """Batch normalization with the statistics of the batch.

    Computes :math:`y = \\gamma \\hat{x} + \\beta` where
    :math:`\\hat{x} = (x - \\mu) / \\sqrt{\\sigma^2 + \\epsilon}`, with
    :math:`\\mu` and :math:`\\sigma^2` the mean and biased variance of x
    over the batch axis and the axes after those gamma spans (or over
    ``axis``). It uses the batch statistics whatever ``config.train``
    says; see :func:`fixed_batch_normalization` for inference.

    Args:
        x: Variable or array, float, of shape ``(N, *gamma.shape, ...)``.
        gamma: Variable or array, the scale.
        beta: Variable or array of gamma's shape and dtype, the shift.
        eps (float): added to the variance, for stability.
        running_mean: array of gamma's shape or None; updated in place to
            ``decay * running_mean + (1 - decay) * mean``.
        running_var: array of gamma's shape or None; updated in place to
            ``decay * running_var + (1 - decay) * m / (m - 1) * var`` for
            m values per feature (the unbiased estimate).
        decay (float): the decay of the running statistics.
        axis (int or tuple of ints): the axes to take the statistics
            over; gamma spans the others.

    Returns:
        Variable of x's shape and dtype.
    """
    reject_removed('batch_normalization', kwargs)
    check_running('batch_normalization', gamma, running_mean=running_mean,
                  running_var=running_var)
    stat_axes, key_axes = batch_axes('batch_normalization', x.ndim,
                                     gamma.ndim, axis)
    if all(a < x.ndim for a in stat_axes):
        _warn_single_sample(x.shape, stat_axes)
    node = BatchNormalization(stat_axes, key_axes, eps)
    y, = node.apply((x, gamma, beta))
    _update_statistics(node, running_mean, running_var, decay, gamma.shape)
    return y


@static_code
def _update_statistics(node, running_mean, running_var, decay, shape):
    """Fold the batch statistics of ``node`` into the running ones (static
    code: a static_graph replay updates them too)."""
    if node.count:
        update_running(running_mean, node.mean.reshape(shape), decay)
        update_running(running_var, node.var.reshape(shape), decay,
                       unbiased_factor(node.count))


@type_check.checks_inputs
def fixed_batch_normalization(x, gamma, beta, mean, var, eps=2e-5,
                              axis=None):
    """Batch normalization with given statistics (for inference).

    Computes :math:`y = \\gamma (x - \\mu) / \\sqrt{\\sigma^2 + \\epsilon}
    + \\beta` with the given ``mean`` :math:`\\mu` and ``var``
    :math:`\\sigma^2`; gradients flow to all five inputs.

    Args:
        x: Variable or array, float.
        gamma, beta: Variables or arrays, the scale and the shift.
        mean, var: Variables or arrays of gamma's shape and dtype.
        eps (float): added to the variance, for stability.
        axis (int or tuple of ints): the axes the statistics were taken
            over, as in :func:`batch_normalization`.

    Returns:
        Variable of x's shape and dtype.
    """
    _, key_axes = batch_axes('fixed_batch_normalization', x.ndim,
                             gamma.ndim, axis)
    y, = FixedBatchNormalization(key_axes, eps).apply(
        (x, gamma, beta, mean, var))
    return y

