"""Determinant, of one matrix or of a batch."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.array.swapaxes import swapaxes
from kusari.autograd.functions.math import _linalg
from kusari.autograd.functions.math.inv import Inv


class Det(function_node.FunctionNode):
    """y = det(A) per matrix; dA = dy * y * A^-T.

    As in Chainer, the gradient of a singular matrix raises, from the
    inverse it needs.
    """

    def __init__(self, batched=False):
        self.batched = batched

    @property
    def label(self):
        return 'batch_det' if self.batched else 'det'

    def check_type_forward(self, in_types):
        _linalg.check_square_matrices(in_types, 3 if self.batched else 2)

    def forward(self, inputs):
        a, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        xp = backend.get_array_module(a)
        return xp.asarray(_linalg.call(self.label, 'no determinant',
                                       xp.linalg.det, a)),

    def backward(self, indexes, grad_outputs):
        a, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        inverse, = Inv(self.batched).apply((a,))
        scale = reshape(grad_outputs[0] * y, y.shape + (1, 1))
        return broadcast_to(scale, a.shape) * swapaxes(inverse, -1, -2),


def det(a):
    """Determinant of a square matrix.

    Args:
        a: Variable or array, float, of shape ``(n, n)``.

    Returns:
        Variable holding the scalar determinant (shape ``()``).
    """
    y, = Det().apply((a,))
    return y


def batch_det(a):
    """Determinant of each square matrix of a batch.

    Args:
        a: Variable or array, float, of shape ``(m, n, n)``.

    Returns:
        Variable of shape ``(m,)``.
    """
    y, = Det(batched=True).apply((a,))
    return y
