"""Reversing the order of elements along an axis."""
from kusari.autograd.functions.array import _axes
from kusari.autograd.utils import type_check


def _flip(array, axis):
    """``array`` reversed along ``axis`` (a view; NumPy's and CuPy's
    ``flip`` for one axis, under the name Chainer gave its fallback)."""
    axis = axis % array.ndim
    return array[(slice(None),) * axis + (slice(None, None, -1),)]


class Flip(_axes.AlongAxis):
    """Reverse an axis (a view); the gradient reverses it back."""

    def forward(self, inputs):
        x, = inputs
        return _flip(x, self.axis),

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
