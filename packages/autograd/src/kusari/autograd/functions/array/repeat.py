"""Repeating each element along an axis."""
import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array._scatter import scatter_add
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.utils import type_check


class Repeat(function_node.FunctionNode):
    """``numpy.repeat`` along one axis; the gradient sums the copies."""

    def __init__(self, repeats, axis):
        self.repeats = repeats
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        _axes.expect_axis(x_type, self.axis)
        if len(self.repeats) != 1:
            type_check.expect(x_type.shape[self.axis] ==
                              type_check.make_variable(len(self.repeats),
                                                       'len(repeats)'))

    def forward(self, inputs):
        x, = inputs
        self._length = x.shape[self.axis]
        repeats = self.repeats[0] if len(self.repeats) == 1 else \
            list(self.repeats)
        return backend.get_array_module(x).repeat(x, repeats, self.axis),

    def backward(self, indexes, grad_outputs):
        return RepeatGrad(self.repeats, self.axis,
                          self._length).apply(grad_outputs)


class RepeatGrad(function_node.FunctionNode):
    """Sum the copies ``numpy.repeat`` made back into each element."""

    def __init__(self, repeats, axis, length):
        self.repeats = repeats
        self.axis = axis
        self.length = length

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        repeats = self.repeats * self.length if len(self.repeats) == 1 \
            else self.repeats
        source = xp.repeat(xp.arange(self.length), list(repeats))
        gy = xp.moveaxis(gy, self.axis, 0)
        gx = xp.zeros((self.length,) + gy.shape[1:], gy.dtype)
        scatter_add(gx, source, gy)
        return xp.moveaxis(gx, 0, self.axis),

    def backward(self, indexes, grad_outputs):
        ggx, = grad_outputs
        return Repeat(self.repeats, self.axis).apply((ggx,))


def _bools_as_counts(repeats):
    """Chainer takes a bool repeat count as 0 or 1 (NumPy does too)."""
    def count(value):
        return int(value) if isinstance(value, (bool, numpy.bool_)) \
            else value
    if isinstance(repeats, (list, tuple)):
        return [count(value) for value in repeats]
    return count(repeats)


def repeat(x, repeats, axis=None):
    """Repeat each element of ``x``, as ``numpy.repeat``.

    Args:
        x: Variable or array.
        repeats: a non-negative int (every element), or a sequence of
            them, one per element along ``axis``; a bool counts as 0 or
            1.
        axis: the axis to repeat along; None flattens ``x`` first.

    Returns:
        Variable.
    """
    repeats = _axes.check_ints('repeat', 'repeats',
                               _bools_as_counts(repeats), 0)
    if not repeats:
        raise ValueError('repeat: repeats must not be empty')
    if axis is None:
        x = reshape(x, (x.size,))
        axis = 0
    axis = _axes.check_int('repeat', 'axis', axis)
    y, = Repeat(repeats, axis).apply((x,))
    return y
