"""Inverse error function."""
import math

from kusari.autograd.functions.math import _ufunc_nodes
from kusari.autograd.functions.math.exponential import exp


class ErfInv(_ufunc_nodes.UnaryElementwise):
    """y = erf^-1(x); dy/dx = sqrt(pi) / 2 exp(y^2)."""

    name = 'erfinv'
    special = True
    retained = 'y'

    def gradient(self, gy, x, y):
        return gy * exp(y * y) * (math.sqrt(math.pi) / 2)


def erfinv(x):
    """Elementwise inverse of the error function: ``erf(erfinv(x)) == x``.

    Args:
        x: Variable or array, float, in :math:`[-1, 1]` (``±1`` give
            ``±inf``; outside, NaN).

    Returns:
        Variable of the same shape and dtype.
    """
    return ErfInv().apply((x,))[0]
