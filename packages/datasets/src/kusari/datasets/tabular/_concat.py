"""Tabular datasets end to end."""
import bisect
import itertools

from kusari.datasets.tabular import _columns
from kusari.datasets.tabular import tabular_dataset


class Concat(tabular_dataset.TabularDataset):
    """The rows of several datasets with the same keys, one after another.

    Each dataset is read only for the rows it holds: all of them
    (``None``), a slice of its own positions, or a list of them. Rows
    from one dataset come back as that dataset returned them; rows from
    several are joined into lists, in the order asked for.
    """

    def __init__(self, *datasets):
        for dataset in datasets[1:]:
            if dataset.keys != datasets[0].keys:
                raise ValueError(
                    'concat: all datasets must have the same keys, got '
                    f'{datasets[0].keys} and {dataset.keys}')
        self._datasets = datasets
        self._ends = list(itertools.accumulate(len(d) for d in datasets))

    def __len__(self):
        return self._ends[-1]

    @property
    def keys(self):
        return self._datasets[0].keys

    @property
    def mode(self):
        return self._datasets[0].mode

    def get_examples(self, indices, key_indices):
        if indices is None:
            parts = [(dataset, None) for dataset in self._datasets]
            order = None
        elif isinstance(indices, slice):
            parts = self._slice_parts(indices)
            order = None
        else:
            parts, order = self._list_parts(indices)
        examples = [dataset.get_examples(local, key_indices)
                    for dataset, local in parts]
        if len(examples) == 1:
            return examples[0]
        count = len(_columns.all_columns(key_indices, len(self.keys)))
        columns = [[value for example in examples for value in example[c]]
                   for c in range(count)]
        if order is not None:
            source = [None] * len(order)
            for position, row in enumerate(order):
                source[row] = position
            columns = [[column[i] for i in source] for column in columns]
        return tuple(columns)

    def _slice_parts(self, indices):
        """(dataset, local slice) for each dataset the slice reaches."""
        start, stop, step = indices.indices(len(self))
        parts = []
        for dataset, end in zip(self._datasets, self._ends):
            local = _local_slice(start, stop, step, end - len(dataset),
                                 len(dataset))
            if local is not None:
                parts.append((dataset, local))
        return parts[::-1] if step < 0 else parts

    def _list_parts(self, indices):
        """(dataset, local positions) for each dataset the list reaches,
        and the rows of the answer that the parts fill, in part order."""
        locals_, rows = {}, {}
        for row, i in enumerate(indices):
            k = bisect.bisect_right(self._ends, i)
            start = self._ends[k] - len(self._datasets[k])
            locals_.setdefault(k, []).append(i - start)
            rows.setdefault(k, []).append(row)
        owners = sorted(locals_)
        parts = [(self._datasets[k], locals_[k]) for k in owners]
        return parts, [row for k in owners for row in rows[k]]

    def convert(self, data):
        return self._datasets[0].convert(data)


def _local_slice(start, stop, step, offset, length):
    """The slice of one dataset (rows ``offset`` to ``offset + length``)
    that ``range(start, stop, step)`` over the whole runs through, or
    ``None`` if it runs through none of them.

    Its start is the first row it reads there and its stop the whole
    stop, moved to the dataset and clipped to it.
    """
    first, stop = start - offset, stop - offset
    if step > 0:
        if first < 0:
            first %= step
        stop = min(stop, length)
    else:
        if first >= length:
            first = length - 1 - (length - 1 - first) % -step
        stop = max(stop, -1)
    if not range(first, stop, step):
        return None
    return slice(first, None if stop < 0 else stop, step)
