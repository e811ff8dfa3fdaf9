"""A tabular dataset that forwards everything to another one."""
from kusari.datasets.tabular import tabular_dataset


class DelegateDataset(tabular_dataset.TabularDataset):
    """Forwards the tabular interface to :attr:`dataset`.

    Subclass it to give a dataset built from
    :func:`~kusari.datasets.tabular.from_data` (or any tabular dataset) a
    class of its own, overriding only what differs.

    Args:
        dataset (TabularDataset): The dataset to forward to.
    """

    def __init__(self, dataset):
        self.dataset = dataset

    def __len__(self):
        return len(self.dataset)

    @property
    def keys(self):
        return self.dataset.keys

    @property
    def mode(self):
        return self.dataset.mode

    def get_examples(self, indices, key_indices):
        return self.dataset.get_examples(indices, key_indices)

    def convert(self, data):
        return self.dataset.convert(data)
