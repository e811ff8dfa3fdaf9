"""Matrix products, batched and broadcasting as ``numpy.matmul``."""
import warnings

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array.broadcast import sum_to
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.math import _mixed_dtypes
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_variable


def _op(x, trans):
    return x.swapaxes(-1, -2) if trans else x


class MatMul(function_node.FunctionNode):
    """``op(a) @ op(b)`` for arrays of 2 or more dimensions, where ``op``
    swaps the last two axes when its flag is set. Float operands of
    different dtypes give NumPy's promotion; each gradient comes back in
    its operand's dtype."""

    def __init__(self, transa=False, transb=False):
        self.transa = transa
        self.transb = transb

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        type_check.expect(
            a_type.dtype.kind == 'f', b_type.dtype.kind == 'f',
            a_type.ndim >= 2, b_type.ndim >= 2)
        a_inner = a_type.shape[-2] if self.transa else a_type.shape[-1]
        b_inner = b_type.shape[-1] if self.transb else b_type.shape[-2]
        type_check.expect(a_inner == b_inner)
        type_check.expect_broadcast_shapes(a_type.shape[:-2],
                                           b_type.shape[:-2])

    def forward(self, inputs):
        a, b = inputs
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(a)
        return xp.matmul(_op(a, self.transa), _op(b, self.transb)),

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        gy, = grad_outputs
        ta, tb = self.transa, self.transb
        # Compared here rather than in forward, which needs not look
        # (NumPy promotes) and runs in every backward pass of linear.
        mixed = a.dtype != b.dtype
        ret = []
        if 0 in indexes:
            ga = _matmul(b, gy, tb, True) if ta else \
                _matmul(gy, b, False, not tb)
            ga = sum_to(ga, a.shape)
            ret.append(_mixed_dtypes.as_dtype_of(a, ga) if mixed else ga)
        if 1 in indexes:
            gb = _matmul(gy, a, True, ta) if tb else \
                _matmul(a, gy, not ta, False)
            gb = sum_to(gb, b.shape)
            ret.append(_mixed_dtypes.as_dtype_of(b, gb) if mixed else gb)
        return ret


def _matmul(a, b, transa, transb):
    return MatMul(transa, transb).apply((a, b))[0]


@type_check.checks_inputs
def matmul(a, b, transa=False, transb=False):
    """Matrix product of ``a`` and ``b``, as ``numpy.matmul``.

    Arrays of more than two dimensions are stacks of matrices whose leading
    axes broadcast; a 1-D ``a`` is a row vector and a 1-D ``b`` a column
    vector, the added axis removed from the result.

    Args:
        a: Variable or array, float.
        b: Variable or array, float (of any float dtype).
        transa: transpose the last two axes of ``a`` first.
        transb: transpose the last two axes of ``b`` first.

    Returns:
        Variable holding the product, of NumPy's promotion of the two
        dtypes.
    """
    a = as_variable(a)
    b = as_variable(b)
    a_vector = a.ndim == 1
    b_vector = b.ndim == 1
    if a_vector:
        a, transa = reshape(a, (1, -1)), False
    if b_vector:
        b, transb = reshape(b, (-1, 1)), False
    y = _matmul(a, b, transa, transb)
    if a_vector or b_vector:
        shape = y.shape
        if a_vector:
            shape = shape[:-2] + shape[-1:]
        if b_vector:
            shape = shape[:-1]
        y = reshape(y, shape)
    return y


@type_check.checks_inputs
def batch_matmul(a, b, transa=False, transb=False):
    """Matrix products of two batches (deprecated: use :func:`matmul`).

    Each operand is 2-D ``(B, N)``, read as B column vectors ``N x 1``,
    or 3-D ``(B, M, N)``, read as B matrices.

    Args:
        a: Variable or array, float, the left matrices.
        b: Variable or array, float, the right matrices.
        transa: transpose each matrix of ``a`` first.
        transb: transpose each matrix of ``b`` first.

    Returns:
        3-D Variable of the B products.
    """
    # (stacklevel: the caller, past the checks_inputs wrapper)
    warnings.warn('batch_matmul is deprecated; use matmul instead',
                  DeprecationWarning, stacklevel=3)
    operands = []
    for name, x in (('a', a), ('b', b)):
        if x.ndim not in (2, 3):
            raise type_check.InvalidType(
                f'2 <= {name}.ndim <= 3', f'{name}.ndim = {x.ndim}',
                f'batch_matmul: {name} must be 2-D (a batch of vectors) or '
                f'3-D (a batch of matrices); got shape {x.shape}')
        operands.append(reshape(x, x.shape + (1,)) if x.ndim == 2 else x)
    return _matmul(operands[0], operands[1], transa, transb)
