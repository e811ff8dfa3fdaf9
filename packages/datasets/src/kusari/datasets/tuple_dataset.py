"""A dataset of tuples zipped from equal-length datasets."""
from kusari.datasets import _zipped


class TupleDataset:
    """Dataset of tuples: the ``i``-th example is ``(d[i] for d in datasets)``.

    Args:
        datasets: Datasets (arrays, lists, datasets) of one length.

    An integer index gives a tuple; a slice gives a list of tuples; a list
    or an integer array gives, as in Chainer, one tuple of the batched
    columns (``(x[index], t[index])``).
    """

    def __init__(self, *datasets):
        self._datasets = datasets
        self._length = _zipped.common_length(
            'TupleDataset', {f'#{i}': d for i, d in enumerate(datasets)})

    def __getitem__(self, index):
        columns, is_list = _zipped.gather(
            self, self._datasets, self._length, index)
        if is_list:
            return list(zip(*columns))
        return tuple(columns)

    def __len__(self):
        return self._length
