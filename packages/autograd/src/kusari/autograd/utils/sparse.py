"""Sparse matrices in COO (coordinate) format, the sparse operand of
``sparse_matmul``.

Entries whose row or column index is negative are padding: they let a
batch of matrices with different numbers of entries share one
``(batch, ldnz)`` layout, and they are ignored.
"""
import numpy

from kusari.array import backend
from kusari.autograd.functions.array._scatter import scatter_add
from kusari.autograd.variable import Variable
from kusari.autograd.variable import as_array

_ORDERS = ('C', 'F', 'other', None)


class CooMatrix:
    """A matrix, or a batch of matrices, in COO format.

    Args:
        data: array of the entries, 1-D ``(nnz,)`` for one matrix or 2-D
            ``(batch, nnz)`` for a batch; it becomes the Variable
            ``self.data`` (a Variable passes as it is).
        row: int array of the entries' row indexes, of ``data``'s shape.
        col: int array of their column indexes, of ``data``'s shape.
        shape: ``(rows, cols)`` of each matrix in dense form.
        order: ``'C'`` if the row indexes are sorted, ``'F'`` if the
            column indexes are, ``'other'`` if neither, None to find out.
        requires_grad: whether ``data`` gets a gradient.
    """

    def __init__(self, data, row, col, shape, order=None,
                 requires_grad=False):
        if row.shape != col.shape:
            raise ValueError(f'CooMatrix: row and col must have one shape; '
                             f'got {row.shape} and {col.shape}')
        if data.shape != row.shape or data.ndim not in (1, 2):
            raise ValueError(f'CooMatrix: data must be 1-D or 2-D and of '
                             f'the shape of row {row.shape}; got '
                             f'{data.shape}')
        if len(shape) != 2:
            raise ValueError(f'CooMatrix: shape must have length 2 (the '
                             f'dense shape of one matrix); got {shape}')
        if order not in _ORDERS:
            raise ValueError(f'CooMatrix: order must be one of {_ORDERS}; '
                             f'got {order!r}')
        if not isinstance(data, Variable):
            data = Variable(data, requires_grad=requires_grad)
        self.data = data
        self.row = row
        self.col = col
        self.shape = tuple(shape)
        self.order = _find_order(row, col, self.shape) if order is None \
            else order

    def to_dense(self):
        """The dense array (entries at one position are summed)."""
        data = self.data.array
        xp = backend.get_array_module(data)
        valid = (self.row >= 0) & (self.col >= 0)
        index = (self.row[valid], self.col[valid])
        if data.ndim == 2:
            batch = xp.broadcast_to(xp.arange(len(data))[:, None],
                                    data.shape)
            index = (batch[valid],) + index
        out = xp.zeros(data.shape[:-1] + self.shape, data.dtype)
        return scatter_add(out, index, data[valid])


def _is_sorted(indexes, valid, bound):
    """Whether the valid indexes never decrease along the last axis;
    padding counts as ``bound``, past every index (it comes last)."""
    xp = backend.get_array_module(indexes)
    keys = xp.where(valid, indexes, bound)
    return bool((xp.diff(keys, axis=-1) >= 0).all())


def _find_order(row, col, shape):
    valid = (row >= 0) & (col >= 0)
    if _is_sorted(row, valid, shape[0]):
        return 'C'
    if _is_sorted(col, valid, shape[1]):
        return 'F'
    return 'other'


def to_coo(x, ldnz=None, requires_grad=False):
    """A matrix, or a batch of them, in COO format.

    The entries are the non-zero elements in row-major order; in a batch
    every matrix gets ``max(nnz, ldnz)`` slots, the unused ones padded
    with index -1 and value 0.

    Args:
        x: Variable or array of 2 (one matrix) or 3 (a batch) dimensions.
        ldnz: the least number of slots per matrix.
        requires_grad: whether the entries get a gradient.

    Returns:
        CooMatrix in ``'C'`` order.
    """
    x = as_array(x)
    if x.ndim not in (2, 3):
        raise ValueError(f'to_coo: x must have 2 or 3 dimensions; got '
                         f'shape {x.shape}')
    xp = backend.get_array_module(x)
    matrices = x if x.ndim == 3 else x[None]
    positions = [xp.nonzero(m) for m in matrices]
    slots = max([len(rows) for rows, _ in positions] + [ldnz or 0])
    data = xp.zeros((len(matrices), slots), x.dtype)
    row = xp.full((len(matrices), slots), -1, numpy.int32)
    col = xp.full((len(matrices), slots), -1, numpy.int32)
    for b, (rows, cols) in enumerate(positions):
        n = len(rows)
        data[b, :n] = matrices[b][rows, cols]
        row[b, :n] = rows
        col[b, :n] = cols
    if x.ndim == 2:
        data, row, col = data[0], row[0], col[0]
    return CooMatrix(data, row, col, x.shape[-2:], order='C',
                     requires_grad=requires_grad)
