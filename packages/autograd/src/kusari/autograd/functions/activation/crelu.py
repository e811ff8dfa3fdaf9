"""Concatenated rectified linear unit."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.activation import _axis
from kusari.autograd.functions.activation.relu import relu


def _halves(array, axis):
    """The two halves of ``array`` along ``axis`` (views)."""
    half = array.shape[axis] // 2
    lead = (slice(None),) * axis
    return array[lead + (slice(None, half),)], array[lead + (slice(half,
                                                                   None),)]


class Unfold(_axis.AxisFunction):
    """y = concatenate((x, -x), axis); the adjoint of :class:`Fold`."""

    def forward(self, inputs):
        x, = inputs
        axis = self.axis % x.ndim
        y = backend.get_array_module(x).concatenate((x, x), axis)
        negated = _halves(y, axis)[1]
        negated *= -1
        return y,

    def backward(self, indexes, grad_outputs):
        return Fold(self.axis).apply(grad_outputs)


class Fold(function_node.FunctionNode):
    """gx = first half - second half of gy along ``axis``."""

    def __init__(self, axis):
        self.axis = axis

    def forward(self, inputs):
        gy, = inputs
        first, second = _halves(gy, self.axis % gy.ndim)
        return first - second,

    def backward(self, indexes, grad_outputs):
        return Unfold(self.axis).apply(grad_outputs)


def crelu(x, axis=1):
    """Concatenated ReLU: :math:`y = (\\max(0, x), \\max(0, -x))`, joined
    along ``axis`` (Shang et al., 2016).

    Args:
        x: Variable or array, float.
        axis (int): the axis along which the two halves are joined.

    Returns:
        Variable of x's dtype whose ``axis`` is twice as long as x's.
    """
    axis = _axis.check_int_axis('crelu', axis)
    return relu(Unfold(axis).apply((x,))[0])
