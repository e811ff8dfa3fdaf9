"""Cholesky decomposition of a symmetric positive-definite matrix."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array.transpose import transpose
from kusari.autograd.functions.math import _linalg
from kusari.autograd.functions.math.inv import inv
from kusari.autograd.functions.math.matmul import matmul


class Cholesky(function_node.FunctionNode):
    """L lower triangular with A = L L^T (only A's lower triangle is read).

    The gradient (Murray, 2016) is symmetric:
    dA = sym(L^-T Phi(L^T dL) L^-1), where Phi keeps the lower triangle
    and halves the diagonal, and sym(S) = (S + S^T) / 2.
    """

    @property
    def label(self):
        return 'cholesky'

    def check_type_forward(self, in_types):
        _linalg.check_square_matrices(in_types, 2)

    def forward(self, inputs):
        a, = inputs
        self.retain_outputs((0,))
        xp = backend.get_array_module(a)
        return _linalg.call('cholesky', 'the input is not positive definite',
                            xp.linalg.cholesky, a),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        xp = backend.get_array_module(y.array)
        n = len(y)
        lower_halved = xp.tri(n, dtype=y.dtype) - 0.5 * xp.eye(
            n, dtype=y.dtype)
        phi = matmul(y, grad_outputs[0], transa=True) * lower_halved
        y_inv = inv(y)
        s = matmul(matmul(y_inv, phi, transa=True), y_inv)
        return (s + transpose(s)) * 0.5,


def cholesky(a):
    """Cholesky decomposition: the lower-triangular ``L`` with
    :math:`a = L L^T`.

    Args:
        a: Variable or array, float, of shape ``(n, n)``, symmetric
            positive-definite (only its lower triangle is read).

    Returns:
        Variable holding ``L``.
    """
    y, = Cholesky().apply((a,))
    return y
