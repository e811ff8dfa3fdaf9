"""A dataset that applies a function to each example of another."""
from kusari.datasets import dataset_mixin


class TransformDataset(dataset_mixin.DatasetMixin):
    """The examples of ``dataset`` passed through ``transform``.

    The function runs each time an example is read, so a random
    augmentation gives a new result every epoch and nothing is stored.

    Args:
        dataset: The underlying dataset.
        transform (callable): Takes one example of ``dataset`` and returns
            the transformed example.
    """

    def __init__(self, dataset, transform):
        if not callable(transform):
            raise TypeError(
                'TransformDataset: transform must be callable, got '
                f'{type(transform).__name__}')
        self._dataset = dataset
        self._transform = transform

    def __len__(self):
        return len(self._dataset)

    def get_example(self, i):
        return self._transform(self._dataset[i])
