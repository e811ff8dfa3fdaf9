"""Views of some rows and some columns of a tabular dataset."""
from kusari.datasets import _index
from kusari.datasets.tabular import _columns
from kusari.datasets.tabular import tabular_dataset


class SliceHelper:
    """What ``dataset.slice`` returns; ``[rows]`` or ``[rows, keys]``."""

    def __init__(self, dataset):
        self._dataset = dataset

    def __getitem__(self, args):
        if isinstance(args, tuple):
            if len(args) != 2:
                raise IndexError(
                    'slice: expected [rows] or [rows, keys], got '
                    f'{len(args)} indices')
            return Slice(self._dataset, *args)
        return Slice(self._dataset, args, None)


class Slice(tabular_dataset.TabularDataset):
    """Rows (a range or a position list) and columns of a base dataset.

    The base dataset is read as the view is: rows chosen by slices reach it
    as a slice, rows chosen by positions as a list, and the columns as
    ``None`` when neither the view nor the reader picks any.
    """

    def __init__(self, dataset, rows, keys):
        length = len(dataset)
        if isinstance(rows, slice):
            self._rows = range(length)[rows]
        elif _index.is_batch_index(rows):
            self._rows = _index.positions(dataset, rows, length)
        else:
            raise TypeError(
                'slice: rows must be a slice, a list or an array, got '
                f'{type(rows).__name__}')
        if keys is None:
            self._key_indices = None
            self._mode = dataset.mode
        elif isinstance(keys, (tuple, list)):
            self._key_indices = _columns.key_indices(dataset, keys)
            self._mode = dataset.mode or tuple
        else:
            self._key_indices = _columns.key_indices(dataset, (keys,))
            self._mode = None
        self._dataset = dataset

    def __len__(self):
        return len(self._rows)

    @property
    def keys(self):
        if self._key_indices is None:
            return self._dataset.keys
        return tuple(self._dataset.keys[i] for i in self._key_indices)

    @property
    def mode(self):
        return self._mode

    def get_examples(self, indices, key_indices):
        if indices is None:
            selected = self._rows
        elif isinstance(indices, slice):
            selected = self._rows[indices]
        else:
            selected = [self._rows[i] for i in indices]
        if self._key_indices is not None:
            wanted = _columns.all_columns(key_indices,
                                          len(self._key_indices))
            key_indices = tuple(self._key_indices[k] for k in wanted)
        return self._dataset.get_examples(
            _columns.as_indices(selected), key_indices)

    def convert(self, data):
        return self._dataset.convert(data)
