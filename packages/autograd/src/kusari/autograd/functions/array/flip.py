"""Reversing the order of elements along an axis."""
from kusari.autograd import function_node
from kusari.autograd.functions.array import _axes
from kusari.autograd.utils import type_check


class Flip(function_node.FunctionNode):
    """Reverse an axis (a view); the gradient reverses it back."""

    def __init__(self, axis):
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        _axes.expect_axis(in_types[0], self.axis)

    def forward(self, inputs):
        x, = inputs
        axis = self.axis % x.ndim
        return x[(slice(None),) * axis + (slice(None, None, -1),)],

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return flip(gy, self.axis),


def flip(x, axis):
    """Reverse the order of the elements of ``x`` along ``axis``.

    Args:
        x: Variable or array.
        axis: the axis to reverse.

    Returns:
        Variable of the same shape.
    """
    axis = _axes.check_int('flip', 'axis', axis)
    y, = Flip(axis).apply((x,))
    return y


def flip_checked(func_name, x, axis):
    """``flip(x, axis)`` for fliplr/flipud, which need ``axis < x.ndim``."""
    if x.ndim <= axis:
        raise type_check.InvalidType(
            f'x.ndim > {axis}', f'x.ndim = {x.ndim}',
            f'{func_name}: x must have at least {axis + 1} axes; got shape '
            f'{x.shape}')
    return flip(x, axis)
