"""Hyperbolic tangent."""
from kusari.autograd.functions.activation import _grad_nodes
from kusari.autograd.utils.array import force_array


class Tanh(_grad_nodes.OutputRetaining):
    """y = tanh(x); dy/dx = 1 - y^2, computed from the retained output."""

    def compute(self, xp, x):
        return force_array(xp.tanh(x))

    def elementwise_expression(self):
        return 'tanh(x0)'

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return TanhGrad().apply((y, grad_outputs[0]))

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        return TanhGrad().forward((outputs[0], grad_outputs[0]))


class TanhGrad(_grad_nodes.DerivativeGrad):
    """gx = gy * (1 - y^2), from the output y of tanh."""

    def derivative(self, xp, y):
        d = force_array(y * y)
        # (A Python 1.0 is taken in y's dtype, and costs less than a
        # scalar of it.)
        xp.subtract(1.0, d, out=d)
        return d

    def second_derivative(self, y):
        return -2 * y


def tanh(x):
    """Elementwise hyperbolic tangent.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Tanh().apply((x,))[0]
