"""Softmax along an axis."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.activation import _axis
from kusari.autograd.functions.math._row_sums import sum_keepdims
from kusari.autograd.functions.math.sum import sum as sum_


class Softmax(_axis.AxisFunction):
    """y = exp(x) / sum(exp(x)) along ``axis``, shifted by the maximum so
    that exp never overflows."""

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        y = _axis.shifted_by_max(x, self.axis)
        xp.exp(y, out=y)
        y /= sum_keepdims(y, (self.axis,))
        return y,

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return SoftmaxGrad(self.axis).apply((y, grad_outputs[0]))


class SoftmaxGrad(function_node.FunctionNode):
    """gx = y (gy - sum(y gy)), sums along ``axis``."""

    def __init__(self, axis):
        self.axis = axis

    def forward(self, inputs):
        y, gy = inputs
        self.retain_inputs((0, 1))
        weighted = y * gy
        gx = gy - sum_keepdims(weighted, (self.axis,))
        gx *= y
        return gx,

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        axis = self.axis
        y_ggx = sum_(y * ggx, axis=axis, keepdims=True)
        ret = []
        if 0 in indexes:
            y_gy = sum_(y * gy, axis=axis, keepdims=True)
            ret.append(ggx * (gy - y_gy) - gy * y_ggx)
        if 1 in indexes:
            ret.append(y * (ggx - y_ggx))
        return ret


def softmax(x, axis=1):
    """Softmax: :math:`y_i = e^{x_i} / \\sum_j e^{x_j}` along ``axis``.

    Stable for inputs of any magnitude: the maximum along the axis is
    subtracted first.

    Args:
        x: Variable or array, float.
        axis (int): the axis the probabilities sum to 1 over.

    Returns:
        Variable of the same shape and dtype.
    """
    axis = _axis.check_int_axis('softmax', axis)
    return Softmax(axis).apply((x,))[0]
