"""Log of the sum of exponentials, over axes, without overflow."""
import numpy

from kusari.array import backend
from kusari.autograd.functions.math import _reduction
from kusari.autograd.functions.math.exponential import exp
from kusari.autograd.utils.array import force_array


class LogSumExp(_reduction.Reduction):
    """y = m + log(sum(exp(x - m))) with m the maximum, so no exponential
    overflows; dy/dx = exp(x - y)."""

    name = 'logsumexp'

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        if x.size:
            shift = force_array(x.max(axis=self.axis, keepdims=True))
            # All -inf (or an inf) in a lane: shifting by it gives NaN.
            shift[~xp.isfinite(shift)] = 0
        else:
            shift = xp.zeros(self.kept_shape(x.shape), x.dtype)
        # Infinities here are right: x - shift may reach -inf in float16
        # (its exp is 0), and an empty or all -inf lane sums to log(0).
        with numpy.errstate(over='ignore', divide='ignore'):
            y = force_array(x - shift)
            xp.exp(y, out=y)
            y = force_array(y.sum(axis=self.axis))
            xp.log(y, out=y)
        y += shift.reshape(y.shape)
        return y,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        shape = x.shape
        return self.unreduce(gy, shape) * exp(x - self.unreduce(y, shape)),


def logsumexp(x, axis=None):
    """Log-sum-exp over ``axis``:
    :math:`y = \\log \\sum_j \\exp(x_j)`, stable for large ``|x|``.

    Args:
        x: Variable or array, float.
        axis: None (all axes), an int or a tuple of ints.

    Returns:
        Variable of the reduced shape.
    """
    y, = LogSumExp(axis).apply((x,))
    return y
