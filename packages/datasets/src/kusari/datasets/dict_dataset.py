"""A dataset of dicts zipped from named equal-length datasets."""
from kusari.datasets import _zipped


class DictDataset:
    """Dataset of dicts: the ``i``-th example is ``{k: d[i]}`` for each key.

    Args:
        datasets: Keyword arguments, each a dataset (array, list, dataset);
            all of one length.

    An integer index gives a dict; a slice gives a list of dicts; a list or
    an integer array gives, as in Chainer, one dict of the batched columns
    (``{k: d[index]}``).
    """

    def __init__(self, **datasets):
        self._datasets = datasets
        self._length = _zipped.common_length('DictDataset', datasets)

    def __getitem__(self, index):
        columns, is_list = _zipped.gather(
            self, list(self._datasets.values()), self._length, index)
        keys = self._datasets.keys()
        if is_list:
            return [dict(zip(keys, values)) for values in zip(*columns)]
        return dict(zip(keys, columns))

    def __len__(self):
        return self._length
