"""Rectified linear unit."""
from kusari.autograd.functions.activation._grad_nodes import OutputRetaining
from kusari.autograd.functions.activation._grad_nodes import ScaleGrad


class ReLU(OutputRetaining):
    """y = max(0, x); gx = gy where y > 0, else 0."""

    def compute(self, xp, x):
        # Against a row of zeros rather than the scalar 0: NumPy's
        # maximum vectorizes two array operands, not an array and a
        # scalar (2x as fast on rows of hundreds of units).
        return xp.maximum(x, xp.zeros(x.shape[-1:], x.dtype),
                          out=xp.empty_like(x))

    def elementwise_expression(self):
        return 'maximum(x0, 0)'

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
