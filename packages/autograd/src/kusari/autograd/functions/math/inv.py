"""Matrix inverse, of one matrix or of a batch."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.math import _linalg
from kusari.autograd.functions.math.matmul import matmul


class Inv(function_node.FunctionNode):
    """Y = A^-1 per matrix; dA = -Y^T dY Y^T.

    A singular matrix raises :class:`numpy.linalg.LinAlgError` (a
    ValueError, as Chainer raises).
    """

    def __init__(self, batched=False):
        self.batched = batched

    @property
    def label(self):
        return 'batch_inv' if self.batched else 'inv'

    def check_type_forward(self, in_types):
        _linalg.check_square_matrices(in_types, 3 if self.batched else 2)

    def forward(self, inputs):
        a, = inputs
        self.retain_outputs((0,))
        xp = backend.get_array_module(a)
        return _linalg.call(self.label, 'the input has singular matrices',
                            xp.linalg.inv, a),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return -matmul(matmul(y, grad_outputs[0], transa=True), y,
                       transb=True),


def inv(a):
    """Inverse of a square matrix.

    Args:
        a: Variable or array, float, of shape ``(n, n)``.

    Returns:
        Variable holding :math:`a^{-1}`.
    """
    y, = Inv().apply((a,))
    return y


def batch_inv(a):
    """Inverse of each square matrix of a batch.

    Args:
        a: Variable or array, float, of shape ``(m, n, n)``.

    Returns:
        Variable of the same shape holding the ``m`` inverses.
    """
    y, = Inv(batched=True).apply((a,))
    return y
