"""Inverse complementary error function."""
import math

from kusari.autograd.functions.math import _ufunc_nodes
from kusari.autograd.functions.math.exponential import exp


class ErfcInv(_ufunc_nodes.UnaryElementwise):
    """y = erfc^-1(x); dy/dx = -sqrt(pi) / 2 exp(y^2)."""

    name = 'erfcinv'
    special = True
    retained = 'y'

    def gradient(self, gy, x, y):
        return gy * exp(y * y) * (-math.sqrt(math.pi) / 2)


def erfcinv(x):
    """Elementwise inverse of the complementary error function:
    ``erfc(erfcinv(x)) == x``.

    Args:
        x: Variable or array, float, in :math:`[0, 2]` (0 and 2 give
            ``inf`` and ``-inf``; outside, NaN).

    Returns:
        Variable of the same shape and dtype.
    """
    return ErfcInv().apply((x,))[0]
