"""Elementwise squared difference."""
from kusari.autograd.functions.math import _ufunc_nodes


class SquaredDifference(_ufunc_nodes.BinaryElementwise):
    """y = (x1 - x2)^2; dy/dx1 = 2 (x1 - x2) = -dy/dx2."""

    name = 'squared_difference'
    broadcast = False

    def compute(self, xp, x1, x2):
        difference = x1 - x2
        difference *= difference
        return difference

    def elementwise_expression(self):
        return 'square(x0 - x1)'

    def gradients(self, gy, x1, x2):
        gx1 = gy * (x1 - x2) * 2
        return gx1, -gx1


def squared_difference(x1, x2):
    """Elementwise squared difference :math:`(x_1 - x_2)^2`.

    Args:
        x1: Variable or array, float.
        x2: Variable or array of the same shape and dtype.

    Returns:
        Variable of the same shape and dtype.
    """
    return SquaredDifference().apply((x1, x2))[0]
