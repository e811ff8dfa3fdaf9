"""Tensor dot product along chosen axes."""
import math

from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.array.swapaxes import permute
from kusari.autograd.functions.math.matmul import matmul
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_variable


def _summed_axes(a, b, axes):
    """The paired axes of ``a`` and ``b`` from ``axes`` (an int, or a
    pair of ints or sequences), normalized to non-negative tuples."""
    if isinstance(axes, int) and not isinstance(axes, bool):
        if not 0 <= axes <= min(a.ndim, b.ndim):
            raise ValueError(f'tensordot: axes must be in [0, '
                             f'{min(a.ndim, b.ndim)}] for inputs of ndim '
                             f'{a.ndim} and {b.ndim}; got {axes}')
        return tuple(range(a.ndim - axes, a.ndim)), tuple(range(axes))
    if not isinstance(axes, (tuple, list)):
        raise TypeError(f'tensordot: axes must be an int or a pair of axis '
                        f'sequences; got {axes!r}')
    if len(axes) != 2:
        raise ValueError(f'tensordot: axes must be a pair of sequence of '
                         f'integers when it is a list or tuple; got '
                         f'{axes!r}')
    try:
        a_axes = _axes.normalize_axes('tensordot', 'axes[0]', axes[0],
                                      a.ndim)
        b_axes = _axes.normalize_axes('tensordot', 'axes[1]', axes[1],
                                      b.ndim)
    except type_check.InvalidType as error:
        # An axis out of range is a wrong value, as for numpy.tensordot.
        raise ValueError(str(error)) from None
    if len(a_axes) != len(b_axes):
        raise ValueError(f'tensordot: axes pairs {len(a_axes)} axes of a '
                         f'with {len(b_axes)} axes of b')
    return a_axes, b_axes


@type_check.checks_inputs
def tensordot(a, b, axes=2):
    """Tensor dot product: the sum of products over paired axes, as
    :func:`numpy.tensordot`.

    The paired axes are gathered into one and the product computed as a
    matrix product, which also gives the gradients (of any order).

    Args:
        a: Variable or array, float.
        b: Variable or array, float (of any float dtype).
        axes: an int ``n`` (the last ``n`` axes of ``a`` with the first
            ``n`` of ``b``), or a pair of sequences of axes of ``a`` and
            of ``b``, paired in order.

    Returns:
        Variable of shape (free axes of ``a``) + (free axes of ``b``), of
        NumPy's promotion of the two dtypes.
    """
    a = as_variable(a)
    b = as_variable(b)
    a_axes, b_axes = _summed_axes(a, b, axes)
    for i, j in zip(a_axes, b_axes):
        if a.shape[i] != b.shape[j]:
            raise ValueError(f'tensordot: axis {i} of a (length '
                             f'{a.shape[i]}) is paired with axis {j} of b '
                             f'(length {b.shape[j]})')
    a_free = [i for i in range(a.ndim) if i not in a_axes]
    b_free = [j for j in range(b.ndim) if j not in b_axes]
    a_shape = tuple(a.shape[i] for i in a_free)
    b_shape = tuple(b.shape[j] for j in b_free)
    summed = math.prod(a.shape[i] for i in a_axes)
    a_matrix = reshape(permute(a, a_free + list(a_axes)),
                       (math.prod(a_shape), summed))
    b_matrix = reshape(permute(b, list(b_axes) + b_free),
                       (summed, math.prod(b_shape)))
    return reshape(matmul(a_matrix, b_matrix), a_shape + b_shape)
