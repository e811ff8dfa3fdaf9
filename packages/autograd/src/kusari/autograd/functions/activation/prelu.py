"""Parametric rectified linear unit."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.activation import _channel_parameter
from kusari.autograd.functions.activation._grad_nodes import zeros_for_none
from kusari.autograd.utils.array import force_array


class PReLU(function_node.FunctionNode):
    """y = x where x >= 0, else W x, with W broadcast from axis 1."""

    def check_type_forward(self, in_types):
        _channel_parameter.check_types(in_types, ('x', 'W'))

    def forward(self, inputs):
        x, W = inputs
        self.retain_inputs((0, 1))
        y = x * _channel_parameter.extend(W, x)
        backend.get_array_module(x).copyto(y, x, where=x >= 0)
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        return PReLUGrad().apply((x, W, grad_outputs[0]))


class PReLUGrad(function_node.FunctionNode):
    """(gx, gW) from (x, W, gy): gx = gy where x >= 0, else W gy; gW sums
    x gy over the negative x."""

    def forward(self, inputs):
        x, W, gy = inputs
        self.retain_inputs((0, 1, 2))
        xp = backend.get_array_module(x)
        positive = x >= 0
        gx = gy * _channel_parameter.extend(W, x)
        xp.copyto(gx, gy, where=positive)
        gW = x * gy
        gW[positive] = 0
        gW = gW.sum(axis=_channel_parameter.reduce_axes(W.ndim, x.ndim))
        return gx, force_array(gW, W.dtype)

    def backward(self, indexes, grad_outputs):
        x, W, gy = self.get_retained_inputs()
        ggx, ggW = zeros_for_none(grad_outputs, (x.array, W.array))
        negative = (x.array < 0).astype(x.dtype)
        W_ext = _channel_parameter.extend_variable(W, x.ndim)
        ggW = _channel_parameter.extend_variable(ggW, x.ndim)
        ret = []
        if 0 in indexes:
            ret.append(ggW * gy * negative)
        if 1 in indexes:
            ret.append(_channel_parameter.sum_to_parameter(
                ggx * gy * negative, W.shape))
        if 2 in indexes:
            ret.append(ggx * (W_ext * negative + (1 - negative)) +
                       ggW * x * negative)
        return ret


def prelu(x, W):
    """Parametric ReLU: :math:`y = x` where :math:`x \\geq 0`,
    :math:`y = W x` elsewhere.

    ``W`` holds one slope per element of ``x.shape[1:1 + W.ndim]`` and is
    broadcast over the first axis and the axes after those.

    Args:
        x: Variable or array, float, of at least ``W.ndim + 1`` axes.
        W: Variable or array of x's dtype, the slopes.

    Returns:
        Variable of x's shape and dtype.
    """
    return PReLU().apply((x, W))[0]
