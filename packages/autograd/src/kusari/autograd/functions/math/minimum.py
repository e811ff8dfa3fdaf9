"""Elementwise minimum of two arrays."""
from kusari.autograd.functions.math import _elementwise


class Minimum(_elementwise.ElementwiseSelection):
    """y = min(x1, x2); the gradient goes to the smaller (x1 on ties)."""

    name = 'minimum'
    comparison = 'less_equal'


def minimum(x1, x2):
    """Elementwise minimum of ``x1`` and ``x2``.

    Where they are equal, the gradient goes to ``x1``.

    Args:
        x1: Variable or array, float.
        x2: Variable or array of the same dtype, broadcastable with ``x1``.

    Returns:
        Variable of the broadcast shape and the inputs' dtype.
    """
    return Minimum().apply((x1, x2))[0]
