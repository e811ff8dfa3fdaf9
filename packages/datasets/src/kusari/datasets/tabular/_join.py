"""Tabular datasets side by side."""
from kusari.datasets.tabular import _columns
from kusari.datasets.tabular import tabular_dataset


class Join(tabular_dataset.TabularDataset):
    """The columns of several datasets of one length, side by side."""

    def __init__(self, *datasets):
        lengths = [len(dataset) for dataset in datasets]
        if len(set(lengths)) != 1:
            raise ValueError(
                f'join: all datasets must have the same length, got '
                f'{lengths}')
        keys = tuple(key for dataset in datasets for key in dataset.keys)
        if len(set(keys)) != len(keys):
            raise ValueError(f'join: the keys {keys} repeat a key')
        self._datasets = datasets
        self._keys = keys
        # Where each joined column comes from: (dataset, its key index).
        self._sources = [(d, i) for d, dataset in enumerate(datasets)
                         for i in range(len(dataset.keys))]

    def __len__(self):
        return len(self._datasets[0])

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        for dataset in self._datasets:
            if dataset.mode is not None:
                return dataset.mode
        return tuple

    def get_examples(self, indices, key_indices):
        wanted = [self._sources[k] for k in
                  _columns.all_columns(key_indices, len(self._keys))]
        columns = {}
        for d, dataset in enumerate(self._datasets):
            local = tuple(dict.fromkeys(i for e, i in wanted if e == d))
            if local:
                values = dataset.get_examples(indices, local)
                columns.update(((d, i), v) for i, v in zip(local, values))
        return tuple(columns[source] for source in wanted)

    def convert(self, data):
        return self._datasets[0].convert(data)
