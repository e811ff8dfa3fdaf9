"""Summation over axes."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.array.broadcast import sum_to  # NOQA
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.utils import type_check
from kusari.autograd.utils.array import force_array


def normalize_axis(func_name, axis):
    """Check an ``axis`` argument: None, an int, or a tuple of distinct ints.

    Returns it as None or a tuple (range checks need the input's ndim and
    happen in the type check).
    """
    if axis is None:
        return None
    if isinstance(axis, int) and not isinstance(axis, bool):
        return (axis,)
    if isinstance(axis, tuple) and all(
            isinstance(a, int) and not isinstance(a, bool) for a in axis):
        if len(set(axis)) != len(axis):
            raise ValueError(f'{func_name}: duplicate value in axis: {axis}')
        return axis
    raise TypeError(f'{func_name}: axis must be None, an int or a tuple of '
                    f'ints; got {axis!r}')


def expect_axes_in_range(x_type, axis):
    """Type-check that every axis of ``axis`` (a tuple) exists in x."""
    for a in axis:
        if a >= 0:
            type_check.expect(a < x_type.ndim)
        else:
            type_check.expect(-a - 1 < x_type.ndim)


def keepdims_shape(in_shape, axis):
    """The shape of a reduction over ``axis`` with ``keepdims=True``."""
    ndim = len(in_shape)
    if axis is None:
        return (1,) * ndim
    axes = {a % ndim for a in axis}
    return tuple(1 if i in axes else s for i, s in enumerate(in_shape))


class Sum(function_node.FunctionNode):
    """Sum over axes; the gradient broadcasts back."""

    type_check_attributes = ('axis',)

    def __init__(self, axis=None, keepdims=False):
        self.axis = normalize_axis('sum', axis)
        self.keepdims = keepdims

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        # Floats only, as in Chainer: a sum of ints is no gradient's source.
        type_check.expect(in_types[0].dtype.kind == 'f')
        if self.axis is not None:
            expect_axes_in_range(in_types[0], self.axis)

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        y = x.sum(axis=self.axis, keepdims=self.keepdims)
        return force_array(y),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        if not self.keepdims:
            gy = reshape(gy, keepdims_shape(self._in_shape, self.axis))
        return broadcast_to(gy, self._in_shape),

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        gy, = grad_outputs
        if not self.keepdims:
            gy = gy.reshape(keepdims_shape(self._in_shape, self.axis))
        if gy.shape == self._in_shape:
            return gy,
        return backend.get_array_module(gy).broadcast_to(
            gy, self._in_shape),


def sum(x, axis=None, keepdims=False):
    """Sum of the elements of ``x`` over ``axis``.

    Args:
        x: Variable or array.
        axis: None (all axes), an int or a tuple of ints.
        keepdims: keep the reduced axes as length-one axes.

    Returns:
        Variable of the reduced shape and the input's dtype.
    """
    y, = Sum(axis, keepdims).apply((x,))
    return y
