"""Maximum and minimum over axes, and the indexes where they are."""
import numpy

from kusari.array import backend
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.math import _reduction
from kusari.autograd.utils import type_check
from kusari.autograd.utils.array import force_array


class _Selection(_reduction.Reduction):
    """max or min over axes; the gradient goes to every element equal to
    the result (all of them where several tie)."""

    def check_type_forward(self, in_types):
        super().check_type_forward(in_types)
        x_type, = in_types
        # A reduction without identity has no value over an empty axis.
        axes = range(x_type.ndim) if self.axis is None else self.axis
        for axis in axes:
            type_check.expect(x_type.shape[axis] > 0)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        y = getattr(x, self.name)(axis=self.axis, keepdims=self.keepdims)
        return force_array(y),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        kept = y.array.reshape(self.kept_shape(x.shape))
        selected = (x.array == kept).astype(x.dtype)
        return self.unreduce(grad_outputs[0], x.shape) * selected,


class Max(_Selection):
    name = 'max'


class Min(_Selection):
    name = 'min'


class _IndexSelection(_reduction.AxisFunction):
    """argmax or argmin over one axis or all; not differentiable."""

    def __init__(self, axis=None):
        if axis is not None:
            axis = _axes.check_int(self.name, 'axis', axis)
        self.axis = axis

    def expect_input(self, x_type):
        type_check.expect(x_type.size > 0)
        if self.axis is not None:
            _axes.expect_axis(x_type, self.axis)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        index = getattr(xp, self.name)(x, axis=self.axis)
        return force_array(index, numpy.dtype(numpy.int32)),

    def backward(self, indexes, grad_outputs):
        return None,


class ArgMax(_IndexSelection):
    name = 'argmax'


class ArgMin(_IndexSelection):
    name = 'argmin'


def max(x, axis=None, keepdims=False):
    """Maximum of the elements of ``x`` over ``axis``.

    The gradient flows to every element equal to the maximum.

    Args:
        x: Variable or array, float.
        axis: None (all axes), an int or a tuple of ints.
        keepdims: keep the reduced axes as length-one axes.

    Returns:
        Variable of the reduced shape.
    """
    y, = Max(axis, keepdims).apply((x,))
    return y


def min(x, axis=None, keepdims=False):
    """Minimum of the elements of ``x`` over ``axis``; the arguments and
    the result are those of :func:`max`, and the gradient flows to every
    element equal to the minimum."""
    y, = Min(axis, keepdims).apply((x,))
    return y


def argmax(x, axis=None):
    """Index of the maximum of ``x`` over ``axis`` (of the flattened
    array when None); not differentiable.

    Args:
        x: Variable or array, float.
        axis: None or an int.

    Returns:
        Variable of int32 indexes.
    """
    y, = ArgMax(axis).apply((x,))
    return y


def argmin(x, axis=None):
    """Index of the minimum of ``x`` over ``axis``; the arguments and the
    result are those of :func:`argmax`."""
    y, = ArgMin(axis).apply((x,))
    return y
