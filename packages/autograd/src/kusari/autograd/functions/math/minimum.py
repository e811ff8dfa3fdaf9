"""Elementwise minimum of two arrays."""
from kusari.autograd.functions.math import _ufunc_nodes


class Minimum(_ufunc_nodes.ElementwiseSelection):
    """y = min(x1, x2); the gradient goes to the smaller (x1 on ties)."""

    name = 'minimum'
    comparison = 'less_equal'


def minimum(x1, x2):
    """Elementwise minimum of ``x1`` and ``x2``; the arguments, the result
    and the gradient on ties are those of :func:`~chainer.functions.maximum`.
    """
    return Minimum().apply((x1, x2))[0]
