"""Leaky rectified linear unit."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.activation._grad_nodes import ScaleGrad
from kusari.autograd.functions.math.exponential import check_float_input


class LeakyReLU(function_node.FunctionNode):
    """y = x where x > 0, else slope * x."""

    def __init__(self, slope):
        self.slope = slope

    def check_type_forward(self, in_types):
        check_float_input(in_types)

    def elementwise_expression(self):
        return f'x0 if x0 > 0 else x0 * {float(self.slope)!r}'

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        # With a non-negative slope, y > 0 exactly where x > 0, so backward
        # needs only the output.
        if self.slope >= 0:
            self.retain_outputs((0,))
        else:
            self.retain_inputs((0,))
        y = xp.multiply(x, x.dtype.type(self.slope), out=xp.empty_like(x))
        xp.copyto(y, x, where=x > 0)
        return y,

    def backward(self, indexes, grad_outputs):
        retained = (self.get_retained_outputs() if self.slope >= 0
                    else self.get_retained_inputs())
        z = retained[0].array
        xp = backend.get_array_module(z)
        one, slope = z.dtype.type(1), z.dtype.type(self.slope)
        # The slope where z <= 0: a NaN passes the gradient, as in Chainer.
        return ScaleGrad(xp.where(z <= 0, slope, one)).apply(grad_outputs)


def leaky_relu(x, slope=0.2):
    """Leaky rectified linear unit: :math:`y = x` where :math:`x > 0`,
    :math:`y = a x` elsewhere.

    Args:
        x: Variable or array, float.
        slope (float): the slope :math:`a` for non-positive inputs.

    Returns:
        Variable of the same shape and dtype.
    """
    return LeakyReLU(float(slope)).apply((x,))[0]
