"""Inverse hyperbolic tangent."""
from kusari.autograd.functions.math import _ufunc_nodes


class Arctanh(_ufunc_nodes.UnaryElementwise):
    """y = arctanh(x); dy/dx = 1 / (1 - x^2)."""

    name = 'arctanh'

    def gradient(self, gy, x, y):
        return gy / (1 - x * x)


def arctanh(x):
    """Elementwise inverse hyperbolic tangent.

    Args:
        x: Variable or array, float, in :math:`(-1, 1)`.

    Returns:
        Variable of the same shape and dtype.
    """
    return Arctanh().apply((x,))[0]
