"""Logarithm of the absolute value of the gamma function."""
from kusari.autograd.functions.math import _ufunc_nodes
from kusari.autograd.functions.math.digamma import digamma


class LGamma(_ufunc_nodes.UnaryElementwise):
    """y = log |Gamma(x)|; dy/dx = psi(x) (digamma)."""

    name = 'lgamma'
    function = 'gammaln'
    special = True

    def gradient(self, gy, x, y):
        return gy * digamma(x)


def lgamma(x):
    """Elementwise logarithm of the gamma function's absolute value,
    :math:`\\ln |\\Gamma(x)|`, finite where ``Gamma(x)`` overflows.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return LGamma().apply((x,))[0]
