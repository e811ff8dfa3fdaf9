"""Digamma function."""
import numpy

from kusari.array import backend
from kusari.autograd.functions.math import _ufunc_nodes
from kusari.autograd.functions.math.polygamma import polygamma


class DiGamma(_ufunc_nodes.UnaryElementwise):
    """y = psi(x) = d/dx log Gamma(x); dy/dx = psi^(1)(x) (trigamma)."""

    name = 'digamma'
    special = True

    def gradient(self, gy, x, y):
        one = backend.get_array_module(x).ones((), numpy.int32)
        return gy * polygamma(one, x)


def digamma(x):
    """Elementwise digamma function :math:`\\psi(x) = \\frac{d}{dx}
    \\ln \\Gamma(x)`.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return DiGamma().apply((x,))[0]
