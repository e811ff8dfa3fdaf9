"""Tabular datasets made from lists, arrays and functions."""
import numpy

from kusari.array import lazy_cupy
from kusari.datasets.tabular import _columns
from kusari.datasets.tabular import tabular_dataset


def _is_sequence(value):
    return isinstance(value, (list, numpy.ndarray)) or (
        lazy_cupy.is_cupy_array(value))


def _is_column(spec):
    """Whether ``spec`` is ``(key, list/array/callable)`` or
    ``((key, ...), callable)``."""
    if not (isinstance(spec, tuple) and len(spec) == 2):
        return False
    key, values = spec
    if isinstance(key, str):
        return _is_sequence(values) or callable(values)
    return (isinstance(key, tuple) and len(key) > 0
            and all(isinstance(k, str) for k in key) and callable(values))


class _Sequence(tabular_dataset.TabularDataset):
    """One column held by a list or an array."""

    def __init__(self, key, values):
        self._key = key
        self._values = values

    def __len__(self):
        return len(self._values)

    @property
    def keys(self):
        return (self._key,)

    @property
    def mode(self):
        return None

    def get_examples(self, indices, key_indices):
        column = self._values if indices is None else _columns.take(
            self._values, _columns.as_indices(
                _columns.rows(indices, len(self))))
        return tuple(column for _ in
                     _columns.all_columns(key_indices, 1))


class _Function(tabular_dataset.TabularDataset):
    """Columns computed row by row: ``function(i)`` for row ``i``.

    With one key the function returns the value; with several, a tuple or
    a dict of values.
    """

    def __init__(self, keys, function, size):
        self._keys = keys
        self._function = function
        self._size = size

    def __len__(self):
        return self._size

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        return None if len(self._keys) == 1 else tuple

    def get_examples(self, indices, key_indices):
        rows = [self._values(i) for i in _columns.rows(indices, self._size)]
        return tuple([row[k] for row in rows] for k in
                     _columns.all_columns(key_indices, len(self._keys)))

    def _values(self, i):
        output = self._function(i)
        if len(self._keys) == 1:
            return (output,)
        if isinstance(output, dict):
            output = tuple(output[key] for key in self._keys)
        if not isinstance(output, tuple) or len(output) != len(self._keys):
            raise ValueError(
                f'from_data: the function of the keys {self._keys} must '
                f'return a tuple or dict of {len(self._keys)} values, got '
                f'{output!r} for row {i}')
        return output


def _size(specs, size):
    lengths = {key: len(values) for key, values in specs
               if _is_sequence(values)}
    if size is None:
        if not lengths:
            raise ValueError(
                'from_data: size is required when no column is a list or '
                'an array')
        size = next(iter(lengths.values()))
    wrong = {key: n for key, n in lengths.items() if n != size}
    if wrong:
        raise ValueError(
            f'from_data: every column must have {size} rows, got {wrong}')
    return size


def from_data(data, *, size=None):
    """Make a :class:`~kusari.datasets.TabularDataset` from columns.

    Args:
        data: One of

            - a list or array: one column, key ``'_0'``, unary mode;
            - ``(key, list/array/callable)``: one named column, unary mode;
            - ``((key, ...), callable)``: columns computed together, tuple
              mode;
            - a tuple of the above (a bare list/array gets the key
              ``'_<position>'``): tuple mode;
            - a dict ``{key: list/array/callable, (key, ...): callable}``:
              dict mode.

            A callable is called with the row index and returns the value
            (or, for several keys, a tuple or dict of values).
        size (int): The number of rows; needed when every column is a
            callable, checked against the lists and arrays otherwise.

    Returns:
        A tabular dataset; nothing is copied.
    """
    if _is_column(data):
        specs, mode = [data], None
    elif isinstance(data, tuple):
        specs = [item if _is_column(item) else (f'_{i}', item)
                 for i, item in enumerate(data)]
        mode = tuple
    elif isinstance(data, dict):
        specs, mode = list(data.items()), dict
    else:
        specs, mode = [('_0', data)], None
    for spec in specs:
        if not _is_column(spec):
            raise TypeError(
                'from_data: expected a list, an array, (key, list/array/'
                'callable) or ((key, ...), callable) for each column, got '
                f'{spec[1]!r} for the key {spec[0]!r}')
    size = _size(specs, size)
    columns = [_Sequence(key, values) if isinstance(key, str)
               and _is_sequence(values) else _Function(
                   (key,) if isinstance(key, str) else key, values, size)
               for key, values in specs]
    dataset = columns[0].join(*columns[1:])
    if mode is tuple:
        return dataset.as_tuple()
    if mode is dict:
        return dataset.as_dict()
    return dataset
