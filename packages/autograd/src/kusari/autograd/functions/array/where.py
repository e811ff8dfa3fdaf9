"""Elementwise choice between two arrays."""
import numbers

import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array.broadcast import sum_to
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_array


class Where(function_node.FunctionNode):
    """``condition ? x : y`` elementwise, broadcasting; the gradient goes
    to ``x`` where the condition holds and to ``y`` elsewhere."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('condition', 'x', 'y'))
        c_type, x_type, y_type = in_types
        type_check.expect(c_type.dtype == numpy.bool_,
                          x_type.dtype == y_type.dtype)
        type_check.expect_broadcast_shapes(c_type.shape, x_type.shape,
                                           y_type.shape)

    def forward(self, inputs):
        condition, x, y = inputs
        self.retain_inputs((0,))
        self._shapes = x.shape, y.shape
        return backend.get_array_module(*inputs).where(condition, x, y),

    def backward(self, indexes, grad_outputs):
        condition, = self.get_retained_inputs()
        gy, = grad_outputs
        xp = backend.get_array_module(gy.array)
        zeros = xp.zeros((), gy.dtype)
        ret = []
        if 1 in indexes:
            ret.append(sum_to(where(condition, gy, zeros), self._shapes[0]))
        if 2 in indexes:
            ret.append(sum_to(where(condition, zeros, gy), self._shapes[1]))
        return (None,) * (0 in indexes) + tuple(ret)


def _as_operand(value, other):
    """A Python scalar as a 0-d array of the other operand's dtype."""
    if isinstance(value, numbers.Number) and not isinstance(value, bool):
        other = as_array(other)
        xp = backend.get_array_module(other)
        return xp.asarray(value, dtype=other.dtype)
    return value


def where(condition, x, y):
    """Choose elementwise: ``x`` where ``condition`` holds, else ``y``.

    The three arguments broadcast together, as ``numpy.where``.

    Args:
        condition: Variable or array of bools (never differentiated).
        x: Variable or array, or a Python number.
        y: Variable or array of the dtype of ``x``, or a Python number.

    Returns:
        Variable of the broadcast shape.
    """
    if isinstance(x, numbers.Number) and isinstance(y, numbers.Number):
        raise TypeError('where: x and y cannot both be Python numbers; '
                        'one must be a Variable or an array')
    x, y = _as_operand(x, y), _as_operand(y, x)
    out, = Where().apply((condition, x, y))
    return out
