"""Exponential and logarithm."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.utils import type_check


def check_float_input(in_types):
    """The common check of one-input elementwise math: one float array."""
    type_check.argname(in_types, ('x',))
    type_check.expect(in_types[0].dtype.kind == 'f')


class Exp(function_node.FunctionNode):
    """y = exp(x); dy/dx = y."""

    @property
    def label(self):
        return 'exp'

    def check_type_forward(self, in_types):
        check_float_input(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return backend.get_array_module(x).exp(x),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * y,


class Log(function_node.FunctionNode):
    """y = log(x); dy/dx = 1 / x."""

    @property
    def label(self):
        return 'log'

    def check_type_forward(self, in_types):
        check_float_input(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return backend.get_array_module(x).log(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / x,


def exp(x):
    """Elementwise exponential :math:`e^x`.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Exp().apply((x,))[0]


def log(x):
    """Elementwise natural logarithm :math:`\\ln x`.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return Log().apply((x,))[0]
