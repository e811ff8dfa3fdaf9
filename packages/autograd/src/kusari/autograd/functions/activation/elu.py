"""Exponential linear unit."""
import numpy

from kusari.array import cuda
from kusari.autograd import function_node
from kusari.autograd.functions.activation import _grad_nodes
from kusari.autograd.functions.math.exponential import check_float_input


class ELU(function_node.FunctionNode):
    """y = x where x > 0, else alpha (exp(x) - 1)."""

    def __init__(self, alpha):
        self.alpha = alpha

    def check_type_forward(self, in_types):
        check_float_input(in_types)

    def forward_cpu(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        # expm1 of min(x, 0): no overflow where the branch is unused.
        y = numpy.minimum(x, x.dtype.type(0), out=numpy.empty_like(x))
        numpy.expm1(y, out=y)
        y *= x.dtype.type(self.alpha)
        numpy.copyto(y, x, where=x > 0)
        return y,

    def forward_gpu(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return cuda.elementwise(
            'T x, T alpha', 'T y',
            'y = x > 0 ? x : (T)(alpha * expm1(x))',
            'kusari_elu_fwd')(x, x.dtype.type(self.alpha)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        return ELUGrad(self.alpha, x.array > 0).apply((y, grad_outputs[0]))


class ELUGrad(_grad_nodes.DerivativeGrad):
    """gx = gy where x > 0, else gy (y + alpha), from the output y and the
    mask of positive inputs."""

    def derivative(self, xp, y):
        alpha, positive = self.parameters
        d = xp.add(y, y.dtype.type(alpha), out=xp.empty_like(y))
        xp.copyto(d, y.dtype.type(1), where=positive)
        return d

    def second_derivative(self, y):
        positive = self.parameters[1]
        return (~positive).astype(y.dtype)


def elu(x, alpha=1.0):
    """Exponential linear unit: :math:`y = x` where :math:`x > 0`,
    :math:`y = \\alpha (e^x - 1)` elsewhere.

    Args:
        x: Variable or array, float.
        alpha (float): the scale :math:`\\alpha` of the negative part.

    Returns:
        Variable of the same shape and dtype.
    """
    return ELU(float(alpha)).apply((x,))[0]
