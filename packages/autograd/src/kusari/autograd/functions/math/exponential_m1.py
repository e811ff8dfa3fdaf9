"""Exponential minus one."""
from kusari.autograd.functions.math import _ufunc_nodes


class Expm1(_ufunc_nodes.UnaryElementwise):
    """y = exp(x) - 1, accurate near 0; dy/dx = y + 1."""

    name = 'expm1'
    retained = 'y'

    def gradient(self, gy, x, y):
        return gy * (y + 1)


def expm1(x):
    """Elementwise :math:`e^x - 1`, accurate for small ``|x|``.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Expm1().apply((x,))[0]
