"""Huber loss: quadratic near zero, linear beyond ``delta``."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.array.expand_dims import expand_dims
from kusari.autograd.functions.loss import _common
from kusari.autograd.functions.math.clip import clip
from kusari.autograd.utils import type_check


class HuberLoss(function_node.FunctionNode):
    """l = d^2 / 2 where |d| <= delta, else delta (|d| - delta / 2), with
    d = x - t; dl/dx = clip(d, -delta, delta) = -dl/dt."""

    def __init__(self, delta, reduce):
        self.delta = delta
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(x_type.dtype.kind == 'f',
                          x_type.dtype == t_type.dtype,
                          x_type.shape == t_type.shape)
        if self.reduce == 'sum_along_second_axis':
            type_check.expect(x_type.ndim >= 2)

    def forward(self, inputs):
        x, t = inputs
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(x)
        delta = x.dtype.type(self.delta)
        diff = xp.subtract(x, t, out=xp.empty_like(x))
        magnitude = xp.abs(diff)
        quadratic = xp.square(diff, out=diff)
        quadratic *= x.dtype.type(0.5)
        linear = magnitude - delta * x.dtype.type(0.5)
        linear *= delta
        loss = xp.where(magnitude <= delta, quadratic, linear)
        if self.reduce == 'sum_along_second_axis':
            loss = loss.sum(axis=1)
        return loss,

    def backward(self, indexes, grad_outputs):
        x, t = self.get_retained_inputs()
        gy, = grad_outputs
        if self.reduce == 'sum_along_second_axis':
            gy = broadcast_to(expand_dims(gy, 1), x.shape)
        gx = gy * clip(x - t, -self.delta, self.delta)
        return tuple([gx if i == 0 else -gx for i in indexes])


def huber_loss(x, t, delta, reduce='sum_along_second_axis'):
    """Huber loss of ``x`` against ``t``.

    With :math:`d = x - t`, the elementwise loss is :math:`d^2 / 2` where
    :math:`|d| \\le \\delta` and :math:`\\delta (|d| - \\delta / 2)`
    elsewhere: robust to outliers, smooth near zero.

    Args:
        x: Variable or array, float, at least 2-D unless ``reduce='no'``.
        t: Variable or array of the shape and dtype of ``x``.
        delta (float): where the loss turns from quadratic to linear.
        reduce (str): ``'sum_along_second_axis'`` sums over axis 1;
            ``'no'`` keeps the elementwise loss.

    Returns:
        Variable: ``x.shape`` without axis 1, or ``x.shape``.
    """
    _common.check_option('huber_loss', 'reduce', reduce,
                         ('sum_along_second_axis', 'no'))
    return HuberLoss(float(delta), reduce).apply((x, t))[0]
