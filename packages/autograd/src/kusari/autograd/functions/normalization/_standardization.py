"""Standardization over axes followed by a per-feature scale and shift: the
computation shared by batch, layer and group normalization.

``x_hat = (x - mean) / sqrt(var + eps)``, with the (biased) statistics taken
over ``stat_axes`` of x, and ``y = gamma * x_hat + beta``, with gamma and
beta spanning ``key_axes`` of x and broadcast over the others. Statistics
are computed in two passes, in float32 for float16 inputs (the result is
cast back). First-order gradients are fused array code; when the backward
pass records a graph (double backprop) they are built from differentiable
functions instead.
"""
import math

import numpy

from kusari.array import backend
from kusari.array import configuration
from kusari.array import cuda
from kusari.autograd import function_node
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array.cast import cast
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.math._row_sums import sum_keepdims
from kusari.autograd.functions.math.average import mean as mean_
from kusari.autograd.functions.math.sqrt import rsqrt
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.utils import type_check
from kusari.autograd.variable import Variable


def compute_dtype(dtype):
    """The dtype statistics are computed in: float32 for float16."""
    return numpy.dtype(numpy.float32) if dtype == numpy.float16 else dtype


def broadcast_shape(x_shape, key_axes):
    """The shape of a parameter spanning ``key_axes`` of x, with length-one
    axes elsewhere, so that it broadcasts against x."""
    return tuple(side if axis in key_axes else 1
                 for axis, side in enumerate(x_shape))


def other_axes(ndim, axes):
    """The axes of an ndim-array not in ``axes``, in order."""
    return tuple(axis for axis in range(ndim) if axis not in axes)


def moments(x, axes):
    """Mean and biased variance of the array x over ``axes`` (kept as
    length-one axes), in the compute dtype; zeros where x is empty."""
    xp = backend.get_array_module(x)
    dtype = compute_dtype(x.dtype)
    if x.size == 0:
        shape = tuple(1 if axis in axes else side
                      for axis, side in enumerate(x.shape))
        return xp.zeros(shape, dtype), xp.zeros(shape, dtype)
    if xp is numpy:
        mean = _mean(x, axes, dtype)
        centered = numpy.subtract(x, mean, dtype=dtype)
        numpy.square(centered, out=centered)
        return mean, _mean(centered, axes)
    mean = x.mean(axis=axes, dtype=dtype, keepdims=True)
    return mean, _variance_kernel()(x, mean, axis=axes, keepdims=True)


def inverse_std(var, eps):
    """``1 / sqrt(var + eps)`` as a new array."""
    xp = backend.get_array_module(var)
    inv_std = var.copy()  # an array even where var is 0-d
    inv_std += var.dtype.type(eps)
    xp.sqrt(inv_std, out=inv_std)
    return xp.reciprocal(inv_std, out=inv_std)


def expect_parameters(in_types, key_axes, extra_axes=()):
    """Type-check ``(x, gamma, beta)``: float x having ``key_axes`` and
    ``extra_axes``, float gamma shaped like x over ``key_axes``, beta of
    gamma's shape and dtype."""
    type_check.argname(in_types, ('x', 'gamma', 'beta'))
    x_type, gamma_type, beta_type = in_types
    type_check.expect(
        x_type.dtype.kind == 'f',
        gamma_type.dtype.kind == 'f',
        beta_type.dtype == gamma_type.dtype,
        beta_type.shape == gamma_type.shape,
        gamma_type.ndim == len(key_axes),
        x_type.ndim > max(key_axes + tuple(extra_axes), default=-1),
    )
    for i, axis in enumerate(key_axes):
        type_check.expect(gamma_type.shape[i] == x_type.shape[axis])


class Standardization(function_node.FunctionNode):
    """y = gamma * (x - mean) / sqrt(var + eps) + beta with the statistics
    of x itself over ``stat_axes``; gamma and beta span ``key_axes``.

    After forward, ``mean`` and ``var`` hold the statistics (kept axes of
    length one, compute dtype) of ``count`` values each, and ``inv_std``
    holds ``1/sqrt(var+eps)``.
    Subclasses may override :meth:`scale_shift` to change the effective
    gamma and beta from the statistics (batch renormalization).
    """

    mean = var = inv_std = None
    count = 0

    def __init__(self, stat_axes, key_axes, eps):
        self.stat_axes = tuple(stat_axes)
        self.key_axes = tuple(key_axes)
        self.eps = eps

    def check_type_forward(self, in_types):
        expect_parameters(in_types, self.key_axes, self.stat_axes)

    def scale_shift(self, gamma, beta):
        """The effective gamma and beta arrays (computed from the statistics
        by subclasses); gamma and beta as given by default."""
        return gamma, beta

    def _statistics(self, x):
        self.count = math.prod(x.shape[axis] for axis in self.stat_axes)
        self.mean, self.var = moments(x, self.stat_axes)
        self.inv_std = inverse_std(self.var, self.eps)

    def _shape_of_parameter(self, x):
        return broadcast_shape(x.shape, self.key_axes)

    def forward_cpu(self, inputs):
        x, gamma, beta = inputs
        self.retain_inputs((0, 1))
        self._statistics(x)
        gamma, beta = self.scale_shift(gamma, beta)
        shape = self._shape_of_parameter(x)
        y = numpy.subtract(x, self.mean, dtype=self.mean.dtype)
        if self._shared_axes(x.ndim):
            y *= self.inv_std * gamma.reshape(shape)
        else:
            y *= self.inv_std
            y *= gamma.reshape(shape)
        y += beta.reshape(shape)
        return y.astype(x.dtype, copy=False),

    def forward_gpu(self, inputs):
        x, gamma, beta = inputs
        self.retain_inputs((0, 1))
        self._statistics(x)
        gamma, beta = self.scale_shift(gamma, beta)
        shape = self._shape_of_parameter(x)
        return cuda.elementwise(
            'T x, U mean, U inv_std, V gamma, V beta', 'T y',
            'y = (T)(((U)x - mean) * inv_std * (U)gamma + (U)beta)',
            'kusari_standardization_fwd')(
                x, self.mean, self.inv_std, gamma.reshape(shape),
                beta.reshape(shape)),

    def _shared_axes(self, ndim):
        """Whether gamma is broadcast over exactly the statistics' axes
        (batch normalization), which lets reductions be shared."""
        return self.stat_axes == other_axes(ndim, self.key_axes)

    def backward(self, indexes, grad_outputs):
        x, gamma = self.get_retained_inputs()
        return self.gradients(x, gamma, grad_outputs[0])

    def gradients(self, x, gamma, gy):
        """(gx, ggamma, gbeta) as Variables for the Variables x, gamma (the
        effective gamma) and gy."""
        if configuration.config.enable_backprop:
            return gradient_graph(x, gamma, gy, self.stat_axes,
                                  self.key_axes, self.eps)
        xp = backend.get_array_module(x.array)
        grads = (_gradients_cpu if xp is numpy else _gradients_gpu)(
            x.array, gamma.array, gy.array, self)
        return tuple([Variable(g, requires_grad=False) for g in grads])


def _reduction_constants(count, gamma_b, gbeta, ggamma):
    """c1 = mean(gy * gamma) and c2 = mean(gy * gamma * x_hat) over the
    statistics' axes, where gamma spans exactly the other axes; in the
    compute dtype (gbeta's), whatever gamma's."""
    scale = gamma_b / gbeta.dtype.type(max(count, 1))
    return gbeta * scale, ggamma * scale


def _gradients_cpu(x, gamma, gy, node):
    dtype = node.mean.dtype
    shape = node._shape_of_parameter(x)
    gamma_b = gamma.reshape(shape)
    param_axes = other_axes(x.ndim, node.key_axes)
    x_hat = numpy.subtract(x, node.mean, dtype=dtype)
    x_hat *= node.inv_std
    gbeta = gy.sum(axis=param_axes, dtype=dtype, keepdims=True)
    work = numpy.multiply(gy, x_hat, dtype=dtype)
    ggamma = work.sum(axis=param_axes, keepdims=True)
    if node._shared_axes(x.ndim):
        c1, c2 = _reduction_constants(node.count, gamma_b, gbeta,
                                      ggamma)
    else:
        work *= gamma_b
        c2 = _mean(work, node.stat_axes)
        numpy.multiply(gy, gamma_b, out=work)
        c1 = _mean(work, node.stat_axes)
    # gx = inv_std * (gy * gamma - c1 - x_hat * c2)
    numpy.multiply(gy, gamma_b, out=work)
    work -= c1
    x_hat *= c2
    work -= x_hat
    work *= node.inv_std
    return _cast_gradients(work, ggamma, gbeta, x, gamma)


def _gradients_gpu(x, gamma, gy, node):
    dtype = node.mean.dtype
    gamma_b = gamma.reshape(node._shape_of_parameter(x))
    param_axes = other_axes(x.ndim, node.key_axes)
    mean, inv_std = node.mean, node.inv_std
    gbeta = gy.sum(axis=param_axes, dtype=dtype, keepdims=True)
    ggamma = cuda.reduce(
        'T gy, T x, U mean, U inv_std', 'U ggamma',
        '(U)gy * ((U)x - mean) * inv_std', 'a + b', 'ggamma = a', '0',
        'kusari_standardization_ggamma')(
            gy, x, mean, inv_std, axis=param_axes, keepdims=True)
    if node._shared_axes(x.ndim):
        c1, c2 = _reduction_constants(node.count, gamma_b, gbeta,
                                      ggamma)
    else:
        c1 = _mean_kernel('(U)gy * (U)gamma', 'c1')(
            gy, gamma_b, x, mean, inv_std, axis=node.stat_axes,
            keepdims=True)
        c2 = _mean_kernel(
            '(U)gy * (U)gamma * ((U)x - mean) * inv_std', 'c2')(
            gy, gamma_b, x, mean, inv_std, axis=node.stat_axes,
            keepdims=True)
    gx = cuda.elementwise(
        'T gy, T x, U mean, U inv_std, V gamma, U c1, U c2', 'T gx',
        'gx = (T)(inv_std * ((U)gy * (U)gamma - c1'
        ' - ((U)x - mean) * inv_std * c2))',
        'kusari_standardization_bwd')(
            gy, x, mean, inv_std, gamma_b, c1, c2)
    return _cast_gradients(gx, ggamma, gbeta, x, gamma)


def _mean(a, axes, dtype=None):
    """The mean of a over axes (kept), zeros where the axes are empty;
    in ``dtype`` (default a's)."""
    count = math.prod(a.shape[axis] for axis in axes)
    total = sum_keepdims(a, axes, dtype)
    return total / total.dtype.type(max(count, 1))


def _cast_gradients(gx, ggamma, gbeta, x, gamma):
    return (gx.astype(x.dtype, copy=False),
            ggamma.reshape(gamma.shape).astype(gamma.dtype, copy=False),
            gbeta.reshape(gamma.shape).astype(gamma.dtype, copy=False))


def _variance_kernel():
    return cuda.reduce(
        'T x, U mean', 'U var', '((U)x - mean) * ((U)x - mean)', 'a + b',
        'var = a / (U)(_in_ind.size() / _out_ind.size())', '0',
        'kusari_standardization_var')


def _mean_kernel(map_expr, name):
    """A kernel for the mean of ``map_expr`` over the reduced axes."""
    return cuda.reduce(
        'T gy, V gamma, T x, U mean, U inv_std', 'U c', map_expr, 'a + b',
        'c = a / (U)(_in_ind.size() / _out_ind.size())', '0',
        f'kusari_standardization_{name}')


def gradient_graph(x, gamma, gy, stat_axes, key_axes, eps):
    """(gx, ggamma, gbeta) of the standardization, built from
    differentiable functions of the Variables x, gamma and gy."""
    gamma_x = gamma if gamma.dtype == x.dtype else cast(gamma, x.dtype)
    gamma_b = reshape(gamma_x, broadcast_shape(x.shape, key_axes))
    param_axes = other_axes(x.ndim, key_axes)
    centered = x - mean_(x, axis=stat_axes, keepdims=True)
    inv_std = rsqrt(
        mean_(centered * centered, axis=stat_axes, keepdims=True) + eps)
    x_hat = centered * inv_std
    g = gy * gamma_b
    gx = inv_std * (g - mean_(g, axis=stat_axes, keepdims=True) -
                    x_hat * mean_(g * x_hat, axis=stat_axes, keepdims=True))
    ggamma = sum_(gy * x_hat, axis=param_axes)
    gbeta = sum_(gy, axis=param_axes)
    if gamma.dtype != x.dtype:
        ggamma = cast(ggamma, gamma.dtype)
        gbeta = cast(gbeta, gamma.dtype)
    return gx, ggamma, gbeta


def check_groups(func_name, x, groups):
    """Return ``groups`` as a positive int that divides the channels of
    x (its axis 1)."""
    groups = _axes.check_positive(func_name, 'groups', groups)
    if x.ndim < 2:
        raise ValueError(f'{func_name}: x must have a batch and a channel '
                         f'axis, got shape {x.shape}')
    if x.shape[1] % groups:
        raise ValueError(f'{func_name}: the {x.shape[1]} channels of x do '
                         f'not divide into {groups} groups')
    return groups
