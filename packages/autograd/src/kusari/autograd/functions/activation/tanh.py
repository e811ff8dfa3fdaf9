"""Hyperbolic tangent."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.math.exponential import check_float_input


class Tanh(function_node.FunctionNode):
    """y = tanh(x); dy/dx = 1 - y^2, computed from the retained output."""

    def check_type_forward(self, in_types):
        check_float_input(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return backend.get_array_module(x).tanh(x),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return TanhGrad().apply((y, grad_outputs[0]))


class TanhGrad(function_node.FunctionNode):
    """gx = gy * (1 - y^2), from the output y and its gradient gy."""

    def forward(self, inputs):
        y, gy = inputs
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(y)
        # 1 - y^2 in place, then times gy: one new array (out= keeps 0-d
        # results arrays, where NumPy would give scalars).
        gx = xp.multiply(y, y, out=xp.empty_like(y))
        xp.subtract(1, gx, out=gx)
        gx *= gy
        return gx,

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(-2 * y * gy * ggx)
        if 1 in indexes:
            ret.append(ggx * (1 - y * y))
        return ret


def tanh(x):
    """Elementwise hyperbolic tangent.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Tanh().apply((x,))[0]
