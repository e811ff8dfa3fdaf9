"""Swish, a self-gated activation."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.activation import _channel_parameter
from kusari.autograd.functions.activation._grad_nodes import stable_sigmoid
from kusari.autograd.functions.activation._grad_nodes import zeros_for_none
from kusari.autograd.functions.activation.sigmoid import sigmoid
from kusari.autograd.utils.array import force_array


class Swish(function_node.FunctionNode):
    """y = x sigmoid(beta x), with beta broadcast from axis 1."""

    def check_type_forward(self, in_types):
        _channel_parameter.check_types(in_types, ('x', 'beta'))

    def forward(self, inputs):
        x, beta = inputs
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(x)
        y = stable_sigmoid(xp, x * _channel_parameter.extend(beta, x))
        y *= x
        return y,

    def backward(self, indexes, grad_outputs):
        x, beta = self.get_retained_inputs()
        return SwishGrad().apply((x, beta, grad_outputs[0]))


class SwishGrad(function_node.FunctionNode):
    """(gx, gbeta) from (x, beta, gy), with u = beta x and s = sigmoid(u):
    gx = gy (s + u s (1 - s)); gbeta sums gy x^2 s (1 - s)."""

    def forward(self, inputs):
        x, beta, gy = inputs
        self.retain_inputs((0, 1, 2))
        xp = backend.get_array_module(x)
        u = x * _channel_parameter.extend(beta, x)
        s = stable_sigmoid(xp, u.copy())
        ds = xp.subtract(s.dtype.type(1), s)
        ds *= s
        gbeta = ds * x
        gbeta *= x
        gbeta *= gy
        gbeta = gbeta.sum(
            axis=_channel_parameter.reduce_axes(beta.ndim, x.ndim))
        u *= ds
        u += s
        u *= gy
        return u, force_array(gbeta, beta.dtype)

    def backward(self, indexes, grad_outputs):
        x, beta, gy = self.get_retained_inputs()
        ggx, ggbeta = zeros_for_none(grad_outputs, (x.array, beta.array))
        beta_shape = beta.shape
        beta = _channel_parameter.extend_variable(beta, x.ndim)
        ggbeta = _channel_parameter.extend_variable(ggbeta, x.ndim)
        u = x * beta
        s = sigmoid(u)
        ds = s * (1 - s)
        dds = ds * (1 - 2 * s)
        # d(gx)/dx, d(gx)/dbeta and d(gbeta)/dx all share 2 s' + u s''.
        shared = gy * (2 * ds + u * dds)
        ret = []
        if 0 in indexes:
            ret.append(shared * (beta * ggx + x * ggbeta))
        if 1 in indexes:
            g_beta = x * (shared * ggx + gy * x * x * dds * ggbeta)
            ret.append(_channel_parameter.sum_to_parameter(
                g_beta, beta_shape))
        if 2 in indexes:
            ret.append((s + u * ds) * ggx + x * x * ds * ggbeta)
        return ret


def swish(x, beta):
    """Swish: :math:`y = x \\, \\sigma(\\beta x)`, with :math:`\\sigma` the
    logistic sigmoid (Ramachandran et al., 2017).

    ``beta`` holds one value per element of ``x.shape[1:1 + beta.ndim]``
    and is broadcast over the first axis and the axes after those.

    Args:
        x: Variable or array, float, of at least ``beta.ndim + 1`` axes.
        beta: Variable or array of x's dtype, learnable.

    Returns:
        Variable of x's shape and dtype.
    """
    return Swish().apply((x, beta))[0]
