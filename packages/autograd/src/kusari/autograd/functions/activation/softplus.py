"""Softplus, a smooth rectifier."""
import numpy

from kusari.array import cuda
from kusari.autograd import function_node
from kusari.autograd.functions.activation import _grad_nodes
from kusari.autograd.functions.activation.sigmoid import sigmoid
from kusari.autograd.functions.math.exponential import check_float_input


class Softplus(function_node.FunctionNode):
    """y = log(1 + exp(beta x)) / beta; dy/dx = sigmoid(beta x)."""

    def __init__(self, beta):
        self.beta = beta

    def check_type_forward(self, in_types):
        check_float_input(in_types)

    def forward_cpu(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        scalar = x.dtype.type
        # max(bx, 0) + log1p(exp(-|bx|)): exp never overflows.
        bx = numpy.multiply(x, scalar(self.beta), out=numpy.empty_like(x))
        y = numpy.abs(bx, out=numpy.empty_like(x))
        numpy.negative(y, out=y)
        numpy.exp(y, out=y)
        numpy.log1p(y, out=y)
        y += numpy.maximum(bx, scalar(0), out=bx)
        y *= scalar(1 / self.beta)
        return y,

    def forward_gpu(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        scalar = x.dtype.type
        return cuda.elementwise(
            'T x, T beta, T beta_inv', 'T y',
            '''
            T bx = beta * x;
            y = (max(bx, (T)0) + log1p(exp(-fabs(bx)))) * beta_inv;
            ''',
            'kusari_softplus_fwd')(x, scalar(self.beta),
                                   scalar(1 / self.beta)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return SoftplusGrad(self.beta).apply((x, grad_outputs[0]))


class SoftplusGrad(_grad_nodes.DerivativeGrad):
    """gx = gy * sigmoid(beta x), from the input x."""

    def derivative(self, xp, x):
        beta, = self.parameters
        return _grad_nodes.stable_sigmoid(
            xp, xp.multiply(x, x.dtype.type(beta), out=xp.empty_like(x)))

    def second_derivative(self, x):
        beta, = self.parameters
        s = sigmoid(x * beta)
        return s * (1 - s) * beta


def softplus(x, beta=1.0):
    """Softplus: :math:`y = \\frac{1}{\\beta} \\log(1 + e^{\\beta x})`.

    A smooth approximation of relu, sharper for larger :math:`\\beta`;
    computed without overflow for any ``x``.

    Args:
        x: Variable or array, float.
        beta (float): :math:`\\beta`, non-zero.

    Returns:
        Variable of the same shape and dtype.
    """
    beta = float(beta)
    if beta == 0:
        raise ValueError('softplus: beta must be non-zero')
    return Softplus(beta).apply((x,))[0]
