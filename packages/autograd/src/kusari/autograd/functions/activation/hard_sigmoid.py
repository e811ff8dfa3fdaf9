"""Piecewise-linear approximation of the sigmoid."""
from kusari.array import backend
from kusari.autograd.functions.activation._grad_nodes import OutputRetaining
from kusari.autograd.functions.activation._grad_nodes import ScaleGrad


class HardSigmoid(OutputRetaining):
    """y = clip(0.2 x + 0.5, 0, 1); gx = 0.2 gy where 0 < y < 1."""

    def compute(self, xp, x):
        scalar = x.dtype.type
        y = xp.multiply(x, scalar(0.2), out=xp.empty_like(x))
        y += scalar(0.5)
        xp.maximum(y, scalar(0), out=y)
        return xp.minimum(y, scalar(1), out=y)

    def elementwise_expression(self):
        return 'minimum(maximum(x0 * 0.2 + 0.5, 0), 1)'

    def backward(self, indexes, grad_outputs):
        y = self.get_retained_outputs()[0].array
        xp = backend.get_array_module(y)
        inside = y > 0
        inside &= y < 1
        coefficient = xp.where(inside, y.dtype.type(0.2), y.dtype.type(0))
        return ScaleGrad(coefficient).apply(grad_outputs)


def hard_sigmoid(x):
    """Hard sigmoid: :math:`y = \\min(1, \\max(0, 0.2 x + 0.5))`.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return HardSigmoid().apply((x,))[0]
