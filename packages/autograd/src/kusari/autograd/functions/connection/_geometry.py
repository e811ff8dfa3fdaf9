"""Argument handling and shared arithmetic of the convolution family."""
import operator

import numpy

from kusari.array import backend
from kusari.autograd.utils import type_check


def expand(func_name, name, value, ndim, minimum):
    """``value`` (an int, or a sequence of ``ndim`` ints, each at least
    ``minimum`` unless that is None) as a tuple of ``ndim`` ints; a clear
    error otherwise."""
    try:
        if isinstance(value, (tuple, list)):
            values = tuple(operator.index(v) for v in value)
        else:
            values = (operator.index(value),) * ndim
    except TypeError:
        values = None
    if values is None or len(values) != ndim or isinstance(value, bool):
        raise TypeError(
            f'{func_name}: {name} must be an int or a sequence of {ndim} '
            f'ints; got {value!r}')
    if minimum is not None and any(v < minimum for v in values):
        raise ValueError(
            f'{func_name}: {name} must be at least {minimum}; got {value!r}')
    return values


def expect_groups(func_name, groups):
    """``groups`` as a positive int; a clear error otherwise."""
    return expand(func_name, 'groups', groups, 1, 1)[0]


def expect_bias(in_types, n_out):
    """Type-check the optional bias ``b`` (third input) against x."""
    if len(in_types) == 3:
        x_type, b_type = in_types[0], in_types[2]
        type_check.expect(
            b_type.dtype == x_type.dtype, b_type.ndim == 1,
            b_type.shape[0] == n_out)


def gemm(a, b):
    """``matmul(a, b)``; float16 operands are multiplied in float32 (NumPy
    has no half-precision BLAS, and the sums need the precision)."""
    xp = backend.get_array_module(a)
    if a.dtype == numpy.float16:
        return xp.matmul(a.astype(numpy.float32),
                         b.astype(numpy.float32)).astype(numpy.float16)
    return xp.matmul(a, b)


def add_bias(y, b):
    """``y += b`` along axis 1 of ``y``, in place; returns ``y``."""
    y += b.reshape((1, -1) + (1,) * (y.ndim - 2))
    return y


def spatial_axes(ndim):
    """Axes summed for the bias gradient: the batch and spatial axes."""
    return (0,) + tuple(range(2, ndim + 2))


def spatial_ndim(func_name, x):
    """Number of spatial axes of ``x`` (batch and channel axes first)."""
    ndim = getattr(x, 'ndim', None)
    if ndim is None or ndim < 3:
        raise ValueError(
            f'{func_name}: x must have a batch, a channel and at least one '
            f'spatial axis; got shape {getattr(x, "shape", None)}')
    return ndim - 2
