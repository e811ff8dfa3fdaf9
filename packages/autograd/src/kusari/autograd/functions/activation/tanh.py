"""Hyperbolic tangent."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.activation import _elementwise
from kusari.autograd.functions.math.exponential import check_float_input


class Tanh(function_node.FunctionNode):
    """y = tanh(x); dy/dx = 1 - y^2, computed from the retained output."""

    def check_type_forward(self, in_types):
        check_float_input(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        return xp.tanh(x, out=xp.empty_like(x)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return TanhGrad().apply((y, grad_outputs[0]))


class TanhGrad(_elementwise.DerivativeGrad):
    """gx = gy * (1 - y^2), from the output y of tanh."""

    def derivative(self, xp, y):
        d = xp.multiply(y, y, out=xp.empty_like(y))
        xp.subtract(y.dtype.type(1), d, out=d)
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
