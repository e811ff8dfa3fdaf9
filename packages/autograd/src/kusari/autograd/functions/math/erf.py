"""Error function."""
import math

from kusari.autograd.functions.math import _ufunc_nodes
from kusari.autograd.functions.math.exponential import exp


class Erf(_ufunc_nodes.UnaryElementwise):
    """y = erf(x); dy/dx = 2 / sqrt(pi) exp(-x^2)."""

    name = 'erf'
    special = True

    def gradient(self, gy, x, y):
        return gy * exp(-(x * x)) * (2 / math.sqrt(math.pi))


def erf(x):
    """Elementwise error function
    :math:`\\mathrm{erf}(x) = \\frac{2}{\\sqrt{\\pi}} \\int_0^x e^{-t^2} dt`.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Erf().apply((x,))[0]
