"""Subsets of a dataset, and the splits made of them.

A :class:`SubDataset` is a view: it stores indices, never examples, so
splitting a large dataset costs nothing.
"""
import operator
import warnings

import numpy

from kusari.datasets import dataset_mixin


class SubDataset(dataset_mixin.DatasetMixin):
    """The examples ``start <= i < finish`` of a dataset, optionally permuted.

    Args:
        dataset: The base dataset.
        start (int): The first position of the subset.
        finish (int): The position after its last example.
        order (sequence of ints): A permutation of
            ``range(len(dataset))``; if given, the ``i``-th example of the
            subset is ``dataset[order[start + i]]``, otherwise
            ``dataset[start + i]``.
    """

    def __init__(self, dataset, start, finish, order=None):
        length = len(dataset)
        if not 0 <= start <= finish <= length:
            raise ValueError(
                'SubDataset: expected 0 <= start <= finish <= '
                f'len(dataset) = {length}, got start={start}, '
                f'finish={finish}')
        if order is not None and len(order) != length:
            raise ValueError(
                'SubDataset: order must have the length of the dataset, '
                f'{length}, got {len(order)}')
        self._dataset = dataset
        self._start = start
        self._finish = finish
        self._order = order

    def __len__(self):
        return self._finish - self._start

    def get_example(self, i):
        index = self._start + i
        if self._order is not None:
            index = self._order[index]
        return self._dataset[index]


def _integer(function, name, value):
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(
            f'{function}: {name} must be an integer, got '
            f'{type(value).__name__}') from None


def _permutation(dataset, seed):
    return numpy.random.RandomState(seed).permutation(len(dataset))


def split_dataset(dataset, split_at, order=None):
    """Split a dataset in two at position ``split_at``.

    Args:
        dataset: The dataset to split.
        split_at (int): The size of the first subset,
            ``0 <= split_at <= len(dataset)``.
        order (sequence of ints): A permutation of the base indices, as for
            :class:`SubDataset`.

    Returns:
        tuple: Two :class:`SubDataset`, of ``split_at`` and
        ``len(dataset) - split_at`` examples.
    """
    split_at = _integer('split_dataset', 'split_at', split_at)
    length = len(dataset)
    if not 0 <= split_at <= length:
        raise ValueError(
            'split_dataset: split_at must be in [0, len(dataset) = '
            f'{length}], got {split_at}')
    return (SubDataset(dataset, 0, split_at, order),
            SubDataset(dataset, split_at, length, order))


def split_dataset_random(dataset, first_size, seed=None):
    """Split a dataset in two at random.

    Args:
        dataset: The dataset to split.
        first_size (int): The size of the first subset.
        seed (int): The seed of the permutation; ``None`` draws one.

    Returns:
        tuple: Two :class:`SubDataset` over a random permutation.
    """
    return split_dataset(dataset, first_size, _permutation(dataset, seed))


def split_dataset_n(dataset, n, order=None):
    """Split a dataset into ``n`` subsets of ``len(dataset) // n`` examples.

    The last ``len(dataset) % n`` examples (in ``order``) are left out, so
    that every subset has the same size.

    Args:
        dataset: The dataset to split.
        n (int): The number of subsets, positive.
        order (sequence of ints): A permutation of the base indices.

    Returns:
        list: ``n`` :class:`SubDataset`; the ``i``-th holds the examples at
        ``order[i * size:(i + 1) * size]``.
    """
    n = _integer('split_dataset_n', 'n', n)
    if n <= 0:
        raise ValueError(f'split_dataset_n: n must be positive, got {n}')
    size = len(dataset) // n
    return [SubDataset(dataset, i * size, (i + 1) * size, order)
            for i in range(n)]


def split_dataset_n_random(dataset, n, seed=None):
    """Split a dataset into ``n`` equal random subsets.

    See :func:`split_dataset_n`; the order is a random permutation drawn
    from ``seed``.
    """
    return split_dataset_n(dataset, n, _permutation(dataset, seed))


def get_cross_validation_datasets(dataset, n_folds=None, order=None,
                                  **kwargs):
    """Training/test pairs for ``n_folds``-fold cross validation.

    The examples (in ``order``) are cut into ``n_folds`` folds whose sizes
    differ by at most one (the later folds are the larger); as in Chainer,
    the ``i``-th pair tests on the ``i``-th fold from the end and trains on
    the examples after that fold then those before it, so that the
    training order is the whole order rotated.

    Args:
        dataset: The dataset to split.
        n_folds (int): The number of folds, positive.
        order (sequence of ints): A permutation of the base indices.

    Returns:
        list: ``n_folds`` tuples ``(train, test)`` of :class:`SubDataset`.
    """
    n_folds = _n_folds('get_cross_validation_datasets', n_folds, kwargs)
    length = len(dataset)
    order = numpy.arange(length) if order is None else numpy.asarray(order)
    if len(order) != length:
        raise ValueError(
            'get_cross_validation_datasets: order must have the length of '
            f'the dataset, {length}, got {len(order)}')
    borders = [length * i // n_folds for i in range(n_folds + 1)]
    splits = []
    for begin, end in reversed(list(zip(borders, borders[1:]))):
        # Train on the examples after the fold, then those before it
        # (wrapping round), then test on the fold.
        fold_order = numpy.concatenate(
            (order[end:], order[:begin], order[begin:end]))
        splits.append(split_dataset(dataset, length - (end - begin),
                                    fold_order))
    return splits


def get_cross_validation_datasets_random(dataset, n_folds=None, seed=None,
                                         **kwargs):
    """Cross-validation pairs over a random permutation drawn from ``seed``.

    See :func:`get_cross_validation_datasets`.
    """
    return get_cross_validation_datasets(
        dataset, n_folds, _permutation(dataset, seed), **kwargs)


def _n_folds(function, n_folds, kwargs):
    """Resolve ``n_folds`` and its deprecated spelling ``n_fold``."""
    if 'n_fold' in kwargs:
        warnings.warn(f'{function}: n_fold is deprecated; use n_folds',
                      DeprecationWarning, stacklevel=3)
        if n_folds is not None:
            raise TypeError(
                f'{function}: give n_folds or n_fold, not both')
        n_folds = kwargs.pop('n_fold')
    if kwargs:
        raise TypeError(
            f'{function}: unexpected keyword arguments {sorted(kwargs)}')
    if n_folds is None:
        raise TypeError(f'{function}: n_folds is required')
    n_folds = _integer(function, 'n_folds', n_folds)
    if n_folds <= 0:
        raise ValueError(
            f'{function}: n_folds must be positive, got {n_folds}')
    return n_folds
