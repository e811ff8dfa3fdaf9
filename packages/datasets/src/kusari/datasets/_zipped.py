"""Indexing shared by the datasets that zip equal-length datasets."""
from kusari.datasets import _index


def common_length(owner, datasets):
    """Return the common length of ``datasets`` (a name -> dataset dict)."""
    if not datasets:
        raise ValueError(f'{owner}: no datasets are given')
    lengths = {name: len(dataset) for name, dataset in datasets.items()}
    if len(set(lengths.values())) != 1:
        raise ValueError(
            f'{owner}: all datasets must have the same length, got lengths '
            + ', '.join(f'{name}: {n}' for name, n in lengths.items()))
    return next(iter(lengths.values()))


def gather(owner, datasets, length, index):
    """Index every dataset of ``datasets`` at ``index``.

    Returns ``(columns, is_list)``: one entry per dataset, each an example
    or, for a batch index, a list or array of examples. As in Chainer, only
    a slice asks for a list of examples (``is_list``); a list or an array
    of indexes asks for the batched columns themselves.
    """
    if type(index) is int and 0 <= index < length:  # what iterators ask
        return [dataset[index] for dataset in datasets], False
    if not _index.is_batch_index(index):
        i = _index.position(owner, index, length)
        return [dataset[i] for dataset in datasets], False
    if isinstance(index, slice):
        return [_index.take(dataset, index) for dataset in datasets], True
    positions = _index.positions(owner, index, length)
    return [_index.take(dataset, positions) for dataset in datasets], False
