"""Scaled complementary error function."""
import math

from kusari.autograd.functions.math import _ufunc_nodes


class Erfcx(_ufunc_nodes.UnaryElementwise):
    """y = exp(x^2) erfc(x); dy/dx = 2 x y - 2 / sqrt(pi)."""

    name = 'erfcx'
    special = True
    retained = 'xy'

    def gradient(self, gy, x, y):
        return gy * (x * y * 2 - 2 / math.sqrt(math.pi))


def erfcx(x):
    """Elementwise scaled complementary error function
    :math:`\\mathrm{erfcx}(x) = e^{x^2} \\mathrm{erfc}(x)`, which stays
    finite where ``erfc(x)`` underflows (large ``x``).

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Erfcx().apply((x,))[0]
