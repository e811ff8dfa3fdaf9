"""Logarithm of the softmax along an axis."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.activation import _axis
from kusari.autograd.functions.math._row_sums import sum_keepdims
from kusari.autograd.functions.math.exponential import exp
from kusari.autograd.functions.math.sum import sum as sum_


class LogSoftmax(_axis.AxisFunction):
    """y = x - logsumexp(x) along ``axis``, shifted by the maximum so that
    exp never overflows."""

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        y = _axis.shifted_by_max(x, self.axis)
        if y.size:
            y -= xp.log(sum_keepdims(xp.exp(y), (self.axis,)))
        return y,

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return LogSoftmaxGrad(self.axis).apply((y, grad_outputs[0]))


class LogSoftmaxGrad(function_node.FunctionNode):
    """gx = gy - exp(y) sum(gy), the sum along ``axis``."""

    def __init__(self, axis):
        self.axis = axis

    def forward(self, inputs):
        y, gy = inputs
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(y)
        gx = xp.exp(y)
        gx *= sum_keepdims(gy, (self.axis,))
        return xp.subtract(gy, gx, out=gx),

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        softmax = exp(y)
        ret = []
        if 0 in indexes:
            ret.append(-ggx * softmax * sum_(gy, axis=self.axis,
                                             keepdims=True))
        if 1 in indexes:
            ret.append(ggx - sum_(ggx * softmax, axis=self.axis,
                                  keepdims=True))
        return ret


def log_softmax(x, axis=1):
    """Log-softmax: :math:`y_i = x_i - \\log \\sum_j e^{x_j}` along
    ``axis``.

    More accurate than ``log(softmax(x))`` where probabilities are tiny,
    and stable for inputs of any magnitude.

    Args:
        x: Variable or array, float.
        axis (int): the axis of the normalization.

    Returns:
        Variable of the same shape and dtype.
    """
    axis = _axis.check_int_axis('log_softmax', axis)
    return LogSoftmax(axis).apply((x,))[0]
