"""Rectified linear unit."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.activation._elementwise import ScaleGrad
from kusari.autograd.functions.math.exponential import check_float_input


class ReLU(function_node.FunctionNode):
    """y = max(0, x); gx = gy where y > 0, else 0."""

    def check_type_forward(self, in_types):
        check_float_input(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        return xp.maximum(x, x.dtype.type(0), out=xp.empty_like(x)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return ScaleGrad(y.array > 0).apply(grad_outputs)


def relu(x):
    """Rectified linear unit: :math:`y = \\max(0, x)`, elementwise.

    The gradient at 0 is 0.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return ReLU().apply((x,))[0]
