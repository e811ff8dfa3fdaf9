"""Logarithm of the standard normal cumulative distribution function."""
import math

from kusari.autograd.functions.math import _ufunc_nodes
from kusari.autograd.functions.math.erfcx import erfcx


class LogNdtr(_ufunc_nodes.UnaryElementwise):
    """y = log Phi(x); dy/dx = Phi'(x) / Phi(x), written as
    sqrt(2 / pi) / erfcx(-x / sqrt(2)), which neither overflows nor
    divides 0 by 0 for very negative x."""

    name = 'log_ndtr'
    special = True

    def gradient(self, gy, x, y):
        return gy / erfcx(x * (-1 / math.sqrt(2))) * math.sqrt(2 / math.pi)


def log_ndtr(x):
    """Elementwise logarithm of :func:`ndtr`, :math:`\\ln \\Phi(x)`,
    accurate where ``ndtr(x)`` underflows (very negative ``x``).

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return LogNdtr().apply((x,))[0]
