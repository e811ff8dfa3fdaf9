"""A dataset that chains several datasets one after another."""
import bisect
import itertools

from kusari.datasets import dataset_mixin


class ConcatenatedDataset(dataset_mixin.DatasetMixin):
    """The examples of every given dataset, in order, as one dataset.

    Args:
        datasets: The datasets to concatenate; the examples of
            ``datasets[0]`` come first.
    """

    def __init__(self, *datasets):
        self._datasets = datasets
        self._ends = list(itertools.accumulate(len(d) for d in datasets))

    def __len__(self):
        return self._ends[-1] if self._ends else 0

    def get_example(self, i):
        which = bisect.bisect_right(self._ends, i)
        start = self._ends[which - 1] if which else 0
        return self._datasets[which][i - start]
