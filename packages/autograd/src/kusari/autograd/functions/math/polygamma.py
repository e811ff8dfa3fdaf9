"""Polygamma functions: derivatives of the digamma function."""
from kusari.autograd.functions.math import _ufunc_nodes
from kusari.autograd.utils import type_check


class PolyGamma(_ufunc_nodes.UnaryElementwise):
    """y = psi^(n)(x); dy/dx = psi^(n+1)(x); no gradient for n."""

    name = 'polygamma'
    special = True
    arguments = ('n', 'x')

    def check_type_forward(self, in_types):
        super().check_type_forward(in_types)
        type_check.expect(in_types[0].dtype.kind == 'i')

    def gradient(self, gy, x, y):
        n, = self.parameters
        return gy * polygamma(n + 1, x)


def polygamma(n, x):
    """Elementwise polygamma function :math:`\\psi^{(n)}(x)`, the
    ``n``-th derivative of the digamma function (``n = 0`` is digamma).

    Args:
        n: array (or Variable) of signed integers >= 0, or an int,
            broadcastable with ``x``: the orders. It gets no gradient.
        x: Variable or array, float.

    Returns:
        Variable of the broadcast shape and ``x``'s dtype.
    """
    n = _ufunc_nodes.parameter_array('polygamma', 'n', n, x)
    return PolyGamma().apply((n, x))[0]
