"""Logarithm of one plus the argument."""
from kusari.autograd.functions.math import _ufunc_nodes


class Log1p(_ufunc_nodes.UnaryElementwise):
    """y = log(1 + x), accurate near 0; dy/dx = 1 / (1 + x)."""

    name = 'log1p'

    def gradient(self, gy, x, y):
        return gy / (x + 1)


def log1p(x):
    """Elementwise :math:`\\ln(1 + x)`, accurate for small ``|x|``.

    Args:
        x: Variable or array, float, greater than -1.

    Returns:
        Variable of the same shape and dtype.
    """
    return Log1p().apply((x,))[0]
