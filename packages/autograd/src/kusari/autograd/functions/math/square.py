"""Elementwise square."""
from kusari.autograd.functions.math import _ufunc_nodes


class Square(_ufunc_nodes.UnaryElementwise):
    """y = x^2; dy/dx = 2 x."""

    name = 'square'

    def gradient(self, gy, x, y):
        return gy * x * 2


def square(x):
    """Elementwise square :math:`x^2`.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Square().apply((x,))[0]
