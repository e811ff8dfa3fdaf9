"""Complementary error function."""
import math

from kusari.autograd.functions.math import _ufunc_nodes
from kusari.autograd.functions.math.exponential import exp


class Erfc(_ufunc_nodes.UnaryElementwise):
    """y = erfc(x) = 1 - erf(x); dy/dx = -2 / sqrt(pi) exp(-x^2)."""

    name = 'erfc'
    special = True

    def gradient(self, gy, x, y):
        return gy * exp(-(x * x)) * (-2 / math.sqrt(math.pi))


def erfc(x):
    """Elementwise complementary error function
    :math:`\\mathrm{erfc}(x) = 1 - \\mathrm{erf}(x)`, accurate where
    ``erf(x)`` is close to 1.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Erfc().apply((x,))[0]
