"""Rectified linear unit."""
from kusari.autograd.functions.activation._grad_nodes import OutputRetaining
from kusari.autograd.functions.activation._grad_nodes import ScaleGrad


class ReLU(OutputRetaining):
    """y = max(0, x); gx = gy where y > 0, else 0."""

    def compute(self, xp, x):
        return xp.maximum(x, x.dtype.type(0), out=xp.empty_like(x))

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return ScaleGrad(y.array > 0).apply(grad_outputs)

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        return ScaleGrad(outputs[0] > 0).forward(grad_outputs)


def relu(x):
    """Rectified linear unit: :math:`y = \\max(0, x)`, elementwise.

    The gradient at 0 is 0.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return ReLU().apply((x,))[0]
