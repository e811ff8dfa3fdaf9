"""Products of a sparse (COO) matrix and a dense one, batched or not."""
import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array._scatter import scatter_add
from kusari.autograd.functions.array.swapaxes import swapaxes
from kusari.autograd.functions.math import _mixed_dtypes
from kusari.autograd.utils import type_check
from kusari.autograd.utils.sparse import CooMatrix


class _Pattern:
    """Where the entries of op(A) sit: per entry its batch (None for one
    matrix), row and column, whether it is not padding; and op(A)'s
    dense shape. Padding entries point at (0, 0) with a zero weight."""

    def __init__(self, batch, rows, cols, valid, shape):
        self.batch = batch
        self.rows = rows
        self.cols = cols
        self.valid = valid
        self.shape = shape

    @classmethod
    def of(cls, row, col, shape, transpose):
        """The pattern of op(A) for A's entries at ``row`` and ``col``
        (negative where padding) in a matrix of ``shape``."""
        xp = backend.get_array_module(row)
        valid = (row >= 0) & (col >= 0)
        rows = xp.where(valid, row, 0)
        cols = xp.where(valid, col, 0)
        batch = None
        if row.ndim == 2:
            batch = xp.broadcast_to(xp.arange(len(row))[:, None], row.shape)
        pattern = cls(batch, rows, cols, valid, shape)
        return pattern.transposed() if transpose else pattern

    def transposed(self):
        return _Pattern(self.batch, self.cols, self.rows, self.valid,
                        self.shape[::-1])

    def index(self, axis_index):
        """The index picking each entry's slice along the matrix axis."""
        if self.batch is None:
            return axis_index,
        return self.batch, axis_index

    def masked(self, values):
        """``values`` with zeros at the padding entries."""
        xp = backend.get_array_module(values)
        return xp.where(self.valid, values, values.dtype.type(0))


def _op(dense, trans):
    return dense.swapaxes(-1, -2) if trans else dense


class _PatternNode(function_node.FunctionNode):
    """A node of op(A), A sparse: its last two inputs are A's ``row`` and
    ``col``, from which forward finds the pattern of op(A) (so that a
    static graph's replay finds that of its own call); they take no
    gradient. ``shape``: A's; ``transa``, ``transb``: whether op
    transposes A, and the dense operand B."""

    _mixed = False  # the two float inputs' dtypes differ (_mixed_dtypes)

    def __init__(self, shape, transa, transb):
        self.shape = tuple(shape)
        self.transa = transa
        self.transb = transb

    def _start(self, inputs):
        """The float inputs, the pattern kept for backward."""
        a, b, row, col = inputs
        self.retain_inputs((0, 1, 2, 3))
        self.pattern = _Pattern.of(row, col, self.shape, self.transa)
        if a.dtype != b.dtype:
            self._mixed = True
        return a, b

    def _retained(self):
        """The float inputs as Variables, and the pair (row, col) the
        nodes of the backward take."""
        a, b, row, col = self.get_retained_inputs()
        return a, b, (row, col)

    def _grads(self, indexes, a, b, first, second):
        """The gradients asked for of the two float inputs (``first()``,
        ``second()``), in their dtypes; None for row and col."""
        ret = []
        for i, (x, grad) in enumerate(((a, first), (b, second))):
            if i in indexes:
                g = grad()
                ret.append(_mixed_dtypes.as_dtype_of(x, g) if self._mixed
                           else g)
        return ret + [None] * sum(i >= 2 for i in indexes)


class CooMatMul(_PatternNode):
    """C = op(A) @ op(B) for sparse A (its entries are input 0, its row
    and col inputs 2 and 3) and dense B (input 1), where op transposes
    the last two axes when asked; C has the promotion of the two float
    dtypes."""

    @property
    def label(self):
        return 'sparse_matmul'

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('sp', 'dn', 'row', 'col'))
        sp_type, dn_type = in_types[:2]
        type_check.expect(
            sp_type.dtype.kind == 'f', dn_type.dtype.kind == 'f',
            dn_type.ndim == sp_type.ndim + 1)
        if type_check.eval(sp_type.ndim) == 2:
            type_check.expect(dn_type.shape[0] == sp_type.shape[0])
        inner = dn_type.shape[-1] if self.transb else dn_type.shape[-2]
        type_check.expect(inner == self.shape[0 if self.transa else 1])

    def forward(self, inputs):
        data, dense = self._start(inputs)
        pattern = self.pattern
        xp = backend.get_array_module(dense)
        right = _op(dense, self.transb)
        gathered = right[pattern.index(pattern.cols)]
        if self._mixed:
            gathered = gathered.astype(
                numpy.promote_types(data.dtype, dense.dtype))
        gathered *= pattern.masked(data)[..., None]
        out = xp.zeros(dense.shape[:-2] + (pattern.shape[0],
                                           right.shape[-1]), gathered.dtype)
        return scatter_add(out, pattern.index(pattern.rows), gathered),

    def backward(self, indexes, grad_outputs):
        data, dense, entries = self._retained()
        gy, = grad_outputs
        return self._grads(
            indexes, data, dense,
            lambda: CooSample(self.shape, self.transa, self.transb).apply(
                (gy, dense) + entries)[0],
            lambda: _dense_grad(self, entries, data, gy))


class CooSample(_PatternNode):
    """d_k = sum_j G[r_k, j] op(B)[c_k, j] at the entries (r_k, c_k) of
    op(A), A sparse: the gradient of the sparse entries of CooMatMul (in
    the promotion of G's and B's dtypes)."""

    def forward(self, inputs):
        g, dense = self._start(inputs)
        pattern = self.pattern
        xp = backend.get_array_module(g)
        left = g[pattern.index(pattern.rows)]
        right = _op(dense, self.transb)[pattern.index(pattern.cols)]
        return pattern.masked(xp.einsum('...j,...j->...', left, right)),

    def backward(self, indexes, grad_outputs):
        g, dense, entries = self._retained()
        gd, = grad_outputs
        return self._grads(
            indexes, g, dense,
            lambda: CooMatMul(self.shape, self.transa, self.transb).apply(
                (gd, dense) + entries)[0],
            lambda: _dense_grad(self, entries, gd, g))


def _dense_grad(node, entries, values, g):
    """The gradient of the dense operand B of op(A) @ op(B) (``node``'s
    options), from A's ``values`` at ``entries`` (row, col) and the
    output gradient ``g``: op(A)^T @ g, laid out as B."""
    grad, = CooMatMul(node.shape, not node.transa, False).apply(
        (values, g) + entries)
    return swapaxes(grad, -1, -2) if node.transb else grad


def _coo_dense(sp, dense, transa, transb):
    y, = CooMatMul(sp.shape, transa, transb).apply(
        (sp.data, dense, sp.row, sp.col))
    return y


def sparse_matmul(a, b, transa=False, transb=False):
    """Matrix product of a sparse COO matrix and a dense one, one of
    either or a batch of each: ``op(a) @ op(b)``.

    Gradients flow to the dense operand and to the sparse one's entries
    (``CooMatrix.data``), at any order.

    Args:
        a: CooMatrix, or a Variable or array, float.
        b: Variable or array when ``a`` is sparse, else a CooMatrix. The
            dense operand has one more axis than the sparse one's
            ``data``: 2-D with one matrix, 3-D with a batch.
        transa: transpose each matrix of ``a`` first.
        transb: transpose each matrix of ``b`` first.

    Returns:
        Variable holding the dense product, of NumPy's promotion of the
        two dtypes (each gradient in its operand's dtype).
    """
    a_sparse = isinstance(a, CooMatrix)
    b_sparse = isinstance(b, CooMatrix)
    if a_sparse and not b_sparse:
        return _coo_dense(a, b, transa, transb)
    if b_sparse and not a_sparse:
        # op(a) @ op(b) = (op(b)^T @ op(a)^T)^T
        return swapaxes(_coo_dense(b, a, not transb, not transa), -1, -2)
    raise ValueError(f'sparse_matmul: exactly one of a and b must be a '
                     f'CooMatrix; got {type(a).__name__} and '
                     f'{type(b).__name__}')
