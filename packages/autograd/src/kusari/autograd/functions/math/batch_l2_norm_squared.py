"""Squared L2 norm of each example of a batch."""
import math

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.utils import type_check


class BatchL2NormSquared(function_node.FunctionNode):
    """y_b = sum of x_b ** 2 over all axes but the first."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim >= 2)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        flat = x.reshape(len(x), math.prod(x.shape[1:]))
        xp = backend.get_array_module(x)
        # A row-wise dot product: no squared copy of x.
        return xp.einsum('ij,ij->i', flat, flat),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy = reshape(grad_outputs[0], (len(x),) + (1,) * (x.ndim - 1))
        return broadcast_to(gy, x.shape) * x * 2.0,


def batch_l2_norm_squared(x):
    """Squared L2 norm of each example: :math:`y_b = \\sum_i x_{b,i}^2`.

    No reduction is done over the first (batch) axis.

    Args:
        x: Variable or array, float, of at least 2 dimensions; the axes
            after the first are all summed over.

    Returns:
        Variable of shape ``(x.shape[0],)``.
    """
    y, = BatchL2NormSquared().apply((x,))
    return y
