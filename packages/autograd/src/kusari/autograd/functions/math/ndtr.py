"""Cumulative distribution function of the standard normal distribution."""
import math

from kusari.autograd.functions.math import _ufunc_nodes
from kusari.autograd.functions.math.exponential import exp


class Ndtr(_ufunc_nodes.UnaryElementwise):
    """y = Phi(x); dy/dx = exp(-x^2 / 2) / sqrt(2 pi)."""

    name = 'ndtr'
    special = True

    def gradient(self, gy, x, y):
        return gy * exp(x * x * -0.5) * (1 / math.sqrt(2 * math.pi))


def ndtr(x):
    """Elementwise cumulative distribution function of the standard normal
    distribution, :math:`\\Phi(x) = \\frac{1}{\\sqrt{2\\pi}}
    \\int_{-\\infty}^x e^{-t^2/2} dt`.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Ndtr().apply((x,))[0]
