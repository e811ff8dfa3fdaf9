"""Hyperbolic sine and cosine."""
from kusari.autograd.functions.math import _ufunc_nodes


class Sinh(_ufunc_nodes.UnaryElementwise):
    """y = sinh(x); dy/dx = cosh(x)."""

    name = 'sinh'

    def gradient(self, gy, x, y):
        return gy * cosh(x)


class Cosh(_ufunc_nodes.UnaryElementwise):
    """y = cosh(x); dy/dx = sinh(x)."""

    name = 'cosh'

    def gradient(self, gy, x, y):
        return gy * sinh(x)


def sinh(x):
    """Elementwise hyperbolic sine.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Sinh().apply((x,))[0]


def cosh(x):
    """Elementwise hyperbolic cosine.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Cosh().apply((x,))[0]
