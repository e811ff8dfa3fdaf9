"""Rectified linear unit clipped from above."""
import numbers

from kusari.autograd.functions.activation._grad_nodes import OutputRetaining
from kusari.autograd.functions.activation._grad_nodes import ScaleGrad


class ClippedReLU(OutputRetaining):
    """y = min(max(0, x), z); gx = gy where 0 < y < z, else 0."""

    def __init__(self, z):
        self.cap = z

    def compute(self, xp, x):
        y = xp.maximum(x, x.dtype.type(0), out=xp.empty_like(x))
        return xp.minimum(y, x.dtype.type(self.cap), out=y)

    def elementwise_expression(self):
        return f'minimum(maximum(x0, 0), {float(self.cap)!r})'

    def backward(self, indexes, grad_outputs):
        y = self.get_retained_outputs()[0].array
        inside = y > 0
        inside &= y < self.cap
        return ScaleGrad(inside).apply(grad_outputs)


def clipped_relu(x, z=20.0):
    """Clipped rectifier unit: :math:`y = \\min(\\max(0, x), z)`.

    Args:
        x: Variable or array, float.
        z (float): the upper bound, positive.

    Returns:
        Variable of the same shape and dtype.
    """
    if not isinstance(z, numbers.Real) or isinstance(z, bool):
        raise TypeError(f'clipped_relu: z must be a real number, got '
                        f'{type(z).__name__}')
    if not z > 0:
        raise ValueError(f'clipped_relu: z must be positive, got {z}')
    return ClippedReLU(float(z)).apply((x,))[0]


def relu6(x):
    """Rectifier clipped at 6: :math:`y = \\min(\\max(0, x), 6)`.

    Args:
        x: Variable or array, float.

    Returns:
        Variable of the same shape and dtype.
    """
    return ClippedReLU(6.0).apply((x,))[0]
