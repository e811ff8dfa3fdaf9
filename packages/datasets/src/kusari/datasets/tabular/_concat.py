"""Tabular datasets end to end."""
import numpy

from kusari.datasets.tabular import _columns
from kusari.datasets.tabular import tabular_dataset


class Concat(tabular_dataset.TabularDataset):
    """The rows of several datasets with the same keys, one after another."""

    def __init__(self, *datasets):
        for dataset in datasets[1:]:
            if dataset.keys != datasets[0].keys:
                raise ValueError(
                    'concat: all datasets must have the same keys, got '
                    f'{datasets[0].keys} and {dataset.keys}')
        self._datasets = datasets
        self._ends = numpy.cumsum([len(d) for d in datasets])

    def __len__(self):
        return int(self._ends[-1])

    @property
    def keys(self):
        return self._datasets[0].keys

    @property
    def mode(self):
        return self._datasets[0].mode

    def get_examples(self, indices, key_indices):
        key_indices = _columns.all_columns(key_indices, len(self.keys))
        positions = _columns.positions_array(
            _columns.rows(indices, len(self)))
        owners = numpy.searchsorted(self._ends, positions, side='right')
        parts, order = [], []
        for k, dataset in enumerate(self._datasets):
            selected = numpy.flatnonzero(owners == k)
            if selected.size:
                start = self._ends[k] - len(dataset)
                parts.append(dataset.get_examples(
                    _local_indices(positions[selected] - start),
                    key_indices))
                order.append(selected)
        if not parts:
            return self._datasets[0].get_examples([], key_indices)
        columns = [_columns.concatenate([part[c] for part in parts])
                   for c in range(len(key_indices))]
        order = numpy.concatenate(order)
        if (numpy.diff(order) < 0).any():
            inverse = numpy.argsort(order, kind='stable').tolist()
            columns = [_columns.take(column, inverse) for column in columns]
        return tuple(columns)

    def convert(self, data):
        return self._datasets[0].convert(data)


def _local_indices(local):
    """Positions in one dataset; an ascending run becomes a slice."""
    first, last = int(local[0]), int(local[-1])
    if last - first + 1 == len(local) and (numpy.diff(local) == 1).all():
        return slice(first, last + 1)
    return local.tolist()
