"""Reshape without copying."""
import math

from kusari.autograd import function_node
from kusari.autograd.utils import type_check


def _count_unknown(shape):
    return sum(1 for s in shape if s < 0)


class Reshape(function_node.FunctionNode):
    """Give the array a new shape of the same size; one -1 is inferred."""

    type_check_attributes = ('shape',)

    def __init__(self, shape):
        self.shape = shape

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        known = math.prod(s for s in self.shape if s >= 0)
        if _count_unknown(self.shape) == 0:
            type_check.expect(x_type.size == known)
        elif known > 0:
            type_check.expect(x_type.size % known == 0)

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        return x.reshape(self.shape),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return reshape(gy, self._in_shape),

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        return grad_outputs[0].reshape(self._in_shape),


def reshape(x, shape):
    """Reshape ``x`` to ``shape`` (at most one -1, inferred).

    Args:
        x: Variable or array.
        shape: tuple of ints.

    Returns:
        Variable of the new shape sharing the input's memory where NumPy
        can.
    """
    if isinstance(shape, int):
        shape = (shape,)
    shape = tuple(shape)
    if _count_unknown(shape) > 1 or any(s < -1 for s in shape):
        raise ValueError(f'reshape: shape may hold a single -1 and no other '
                         f'negative entry; got {shape}')
    if getattr(x, 'shape', None) == shape:
        from kusari.autograd.variable import as_variable
        return as_variable(x)
    y, = Reshape(shape).apply((x,))
    return y
