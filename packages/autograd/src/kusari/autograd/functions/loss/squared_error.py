"""Elementwise squared error."""
from kusari.autograd.functions.math.squared_difference import \
    SquaredDifference


class SquaredError(SquaredDifference):
    """y = (x0 - x1)^2: squared_difference under the loss's names."""

    name = 'squared_error'
    arguments = ('x0', 'x1')


def squared_error(x0, x1):
    """Elementwise squared error :math:`(x_0 - x_1)^2`.

    Args:
        x0: Variable or array, float.
        x1: Variable or array of the shape and dtype of ``x0``.

    Returns:
        Variable of the same shape and dtype.
    """
    return SquaredError().apply((x0, x1))[0]
