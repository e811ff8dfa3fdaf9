"""Hurwitz zeta function."""
from kusari.autograd.functions.math import _ufunc_nodes


class Zeta(_ufunc_nodes.UnaryElementwise):
    """y = zeta(x, q) = sum_k (k + q)^-x; dy/dq = -x zeta(x + 1, q); no
    gradient for x."""

    name = 'zeta'
    special = True
    arguments = ('x', 'q')

    def gradient(self, gy, q, y):
        x, = self.parameters
        minus_x = (-x).astype(q.dtype, copy=False)
        return gy * zeta(x + 1, q) * minus_x


def zeta(x, q):
    """Elementwise Hurwitz zeta function
    :math:`\\zeta(x, q) = \\sum_{k=0}^{\\infty} (k + q)^{-x}`, differentiable
    with respect to ``q`` only.

    Args:
        x: array, or a scalar, broadcastable with ``q``: the exponents
            (``x > 1`` for a finite sum).
        q: Variable or array, float.

    Returns:
        Variable of the broadcast shape and ``q``'s dtype.
    """
    x = _ufunc_nodes.parameter_array('zeta', 'x', x, q)
    return Zeta().apply((x, q))[0]
