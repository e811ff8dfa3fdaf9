"""Elementwise maximum of two arrays."""
from kusari.autograd.functions.math import _ufunc_nodes


class Maximum(_ufunc_nodes.ElementwiseSelection):
    """y = max(x1, x2); the gradient goes to the larger (x1 on ties)."""

    name = 'maximum'
    comparison = 'greater_equal'


def maximum(x1, x2):
    """Elementwise maximum of ``x1`` and ``x2``.

    Where they are equal, the gradient goes to ``x1``.

    Args:
        x1: Variable or array, float.
        x2: Variable or array of the same dtype, broadcastable with ``x1``.

    Returns:
        Variable of the broadcast shape and the inputs' dtype.
    """
    return Maximum().apply((x1, x2))[0]
