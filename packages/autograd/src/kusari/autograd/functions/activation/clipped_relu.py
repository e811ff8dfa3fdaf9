"""Rectified linear unit clipped from above."""
import numbers

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.activation._elementwise import ScaleGrad
from kusari.autograd.functions.math.exponential import check_float_input


class ClippedReLU(function_node.FunctionNode):
    """y = min(max(0, x), z); gx = gy where 0 < y < z, else 0."""

    def __init__(self, z):
        self.cap = z

    def check_type_forward(self, in_types):
        check_float_input(in_types)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        y = xp.maximum(x, x.dtype.type(0), out=xp.empty_like(x))
        return xp.minimum(y, x.dtype.type(self.cap), out=y),

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
