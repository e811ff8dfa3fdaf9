"""Logistic sigmoid."""
import numpy

from kusari.array import cuda
from kusari.autograd import function_node
from kusari.autograd.functions.activation import _grad_nodes
from kusari.autograd.functions.math.exponential import check_float_input


class Sigmoid(function_node.FunctionNode):
    """y = 1 / (1 + exp(-x)); dy/dx = y (1 - y), from the output."""

    def check_type_forward(self, in_types):
        check_float_input(in_types)

    def forward_cpu(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return _grad_nodes.stable_sigmoid(numpy, x.copy()),

    def forward_gpu(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return cuda.elementwise(
            'T x', 'T y', 'y = tanh(x * 0.5) * 0.5 + 0.5',
            'kusari_sigmoid_fwd')(x),

    def elementwise_expression(self):
        return 'tanh(x0 * 0.5) * 0.5 + 0.5'  # (stable_sigmoid's steps)

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return SigmoidGrad().apply((y, grad_outputs[0]))


class SigmoidGrad(_grad_nodes.DerivativeGrad):
    """gx = gy * y (1 - y), from the output y of sigmoid."""

    def derivative(self, xp, y):
        return output_derivative(xp, y)

    def second_derivative(self, y):
        return 1 - 2 * y


def output_derivative(xp, y):
    """sigmoid'(x) as a new array, from the output y = sigmoid(x):
    y (1 - y)."""
    d = xp.subtract(y.dtype.type(1), y, out=xp.empty_like(y))
    d *= y
    return d


def sigmoid(x):
    """Logistic sigmoid :math:`y = 1 / (1 + e^{-x})`, elementwise.

    Computed as :math:`\\tanh(x / 2) / 2 + 1 / 2`, which cannot overflow.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype, with values in [0, 1].
    """
    return Sigmoid().apply((x,))[0]
