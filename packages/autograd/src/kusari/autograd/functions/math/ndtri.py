"""Inverse of the standard normal cumulative distribution function."""
import math

from kusari.autograd.functions.math import _ufunc_nodes
from kusari.autograd.functions.math.exponential import exp


class Ndtri(_ufunc_nodes.UnaryElementwise):
    """y = Phi^-1(x); dy/dx = sqrt(2 pi) exp(y^2 / 2)."""

    name = 'ndtri'
    special = True
    retained = 'y'

    def gradient(self, gy, x, y):
        return gy * exp(y * y * 0.5) * math.sqrt(2 * math.pi)


def ndtri(x):
    """Elementwise inverse of :func:`ndtr`: the standard normal quantile
    :math:`\\Phi^{-1}(x)`.

    Args:
        x: Variable or array, float, in :math:`[0, 1]` (0 and 1 give
            ``-inf`` and ``inf``; outside, NaN).

    Returns:
        Variable of the same shape and dtype.
    """
    return Ndtri().apply((x,))[0]
