"""Index checking shared by the datasets.

Every dataset reports a bad index the same way: the error names the
dataset, the index and the length.
"""
import operator

import numpy

from kusari.array import lazy_cupy


def _name(owner):
    return owner if isinstance(owner, str) else type(owner).__name__


def position(owner, index, length):
    """Return ``index`` (negative counts from the end) as ``0 <= i < length``.

    Raises:
        TypeError: ``index`` is not an integer.
        IndexError: it is out of range.
    """
    try:
        i = operator.index(index)
    except TypeError:
        raise TypeError(
            f'{_name(owner)}: an index must be an integer, a slice, a list '
            f'or an integer array, got {type(index).__name__}') from None
    if i < 0:
        i += length
    if not 0 <= i < length:
        raise IndexError(
            f'{_name(owner)}: index {index} is out of range for a dataset '
            f'of length {length}')
    return i


def is_batch_index(index):
    """Whether ``index`` selects several examples (slice, list or array)."""
    return isinstance(index, (slice, list, numpy.ndarray)) or (
        lazy_cupy.is_cupy_array(index))


def positions(owner, index, length):
    """Return the positions that a slice, list or 1-D array selects.

    A slice gives a ``range``; a list or an integer array gives a list of
    positions in ``range(length)``, each checked as by :func:`position`.
    A boolean list or array of length ``length`` selects where it is true;
    one of another length is a ValueError, as in Chainer (a mask that does
    not fit the dataset is a bad value, not a position out of range).
    """
    if isinstance(index, slice):
        return range(length)[index]
    if lazy_cupy.is_cupy_array(index):
        index = index.get()
    array = numpy.asarray(index)
    if array.ndim != 1 or not (array.size == 0 or array.dtype.kind in 'iub'):
        raise TypeError(
            f'{_name(owner)}: a list or array index must be one-dimensional '
            f'of integers or booleans, got {array.ndim}-d of dtype '
            f'{array.dtype}')
    if array.dtype.kind == 'b':
        if len(array) != length:
            raise ValueError(
                f'{_name(owner)}: a boolean index must have the length of '
                f'the dataset, {length}, got {len(array)}')
        return numpy.flatnonzero(array).tolist()
    return [position(owner, i, length) for i in array.tolist()]


def take(dataset, index):
    """Examples of ``dataset`` at a slice or a list of positions.

    Lists and tuples are indexed one by one; arrays and datasets take the
    whole index at once.
    """
    if isinstance(dataset, (list, tuple)) and not isinstance(index, slice):
        return [dataset[i] for i in index]
    return dataset[index]
