"""Epoch bookkeeping shared by the iterators that follow an index order.

The state of such an iterator is an immutable :class:`EpochState`;
:func:`advance` computes the indices of the next batch and the state after
it, without touching the iterator, so that a failed load leaves the
iterator where it was and prefetching iterators can run ahead of what
their user has consumed.
"""
import collections
import numbers

import numpy

from kusari.datasets import iterator
from kusari.datasets.iterators import order_samplers

EpochState = collections.namedtuple(
    'EpochState', ('current_position', 'epoch', 'is_new_epoch', 'order'))
EpochState.__doc__ = """Where an iterator is: the position in the current
order (None means ``0, 1, ..., len(dataset) - 1``), the number of completed
epochs and whether the last batch completed one."""


def check_positive_int(owner, name, value, allow_none=False):
    """Raise unless ``value`` is an int >= 1 (or None if allowed)."""
    if value is None and allow_none:
        return
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) \
            or value < 1:
        expected = 'a positive int' + (' or None' if allow_none else '')
        raise ValueError(
            f'{owner}: {name} must be {expected}, got {value!r}')


def _next_order(order_sampler, order, position):
    new_order = order_sampler(order, position)
    if len(new_order) != len(order):
        raise ValueError(
            f'order_sampler returned an order of length {len(new_order)}; '
            f'expected the length of the previous order, {len(order)}')
    return new_order


def advance(state, batch_size, repeat, order_sampler, dataset_length):
    """Return ``(state after the next batch, its indices)``, or None at the
    end of a non-repeating iteration.

    A batch that reaches the end of an epoch takes the rest of its examples
    from the start of the next epoch's order (when ``repeat``), so every
    batch but the last of a non-repeating iteration is full.
    """
    position, epoch, _, order = state
    if not repeat and epoch > 0:
        return None
    epoch_size = dataset_length if order is None else len(order)
    if epoch_size == 0:
        if repeat:
            raise ValueError(
                'iterator: cannot repeat over an empty dataset (the epoch '
                'size must be positive)')
        return None
    start = position
    parts = []
    needed = batch_size
    is_new_epoch = False
    while needed:
        end = min(position + needed, epoch_size)
        parts.append(numpy.arange(position, end) if order is None
                     else order[position:end])
        needed -= end - position
        position = end
        if position == epoch_size:
            epoch += 1
            is_new_epoch = True
            position = 0
            # The next order is drawn even where no epoch follows, as
            # Chainer does: a seeded run draws the same random numbers.
            if order is not None:
                order = _next_order(order_sampler, order, start)
            if not repeat:
                break
    indices = parts[0] if len(parts) == 1 else numpy.concatenate(parts)
    return EpochState(position, epoch, is_new_epoch, order), indices


def _serialize_first_present(serializer, keys, value):
    """``serializer(key, value)`` with the first of ``keys``, trying the
    next where a deserializer has no such key."""
    for key in keys[:-1]:
        try:
            return serializer(key, value)
        except KeyError:
            pass
    return serializer(keys[-1], value)


class EpochIterator(iterator.Iterator):
    """An iterator over ``dataset[i]`` for ``i`` in an order that an order
    sampler may renew every epoch; subclasses decide how examples load.

    ``shuffle`` and ``order_sampler`` are as in Chainer: ``shuffle=True``
    (or both None) shuffles every epoch with a :class:`ShuffleOrderSampler`,
    ``shuffle=False`` reads in index order, and a custom ``order_sampler``
    requires ``shuffle=None``.
    """

    # The keys of the order in snapshots: the first is written, the other
    # read where the first is missing (Chainer's MultithreadIterator, and
    # SerialIterator before v5, wrote '_order').
    _order_keys = ('order', '_order')

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None,
                 order_sampler=None):
        owner = type(self).__name__
        if not (hasattr(dataset, '__len__')
                and hasattr(dataset, '__getitem__')):
            raise TypeError(
                f'{owner}: dataset must support len() and indexing, got '
                f'{type(dataset).__name__}')
        check_positive_int(owner, 'batch_size', batch_size)
        if shuffle is not None and order_sampler is not None:
            raise ValueError(
                f'{owner}: shuffle={shuffle!r} and an order_sampler were '
                f'both given; pass shuffle=None to use a custom '
                f'order_sampler')
        if order_sampler is not None and not callable(order_sampler):
            raise TypeError(
                f'{owner}: order_sampler must be callable, got '
                f'{type(order_sampler).__name__}')
        if shuffle is None and order_sampler is None or shuffle:
            order_sampler = order_samplers.ShuffleOrderSampler()
        self.dataset = dataset
        self.batch_size = int(batch_size)
        self._repeat = bool(repeat)
        self.order_sampler = order_sampler
        EpochIterator.reset(self)

    def reset(self):
        order = None
        if self.order_sampler is not None:
            # The first order sets the epoch size, which may differ from
            # the dataset's (an order may repeat or skip examples).
            order = self.order_sampler(numpy.arange(len(self.dataset)), 0)
        self._state = EpochState(0, 0, False, order)
        self._previous_epoch_detail = None

    @property
    def repeat(self):
        """Whether the iteration goes on past the first epoch."""
        return self._repeat

    @property
    def current_position(self):
        """The position of the next example in the current epoch's order."""
        return self._state.current_position

    @property
    def epoch(self):
        return self._state.epoch

    @property
    def is_new_epoch(self):
        return self._state.is_new_epoch

    @property
    def _epoch_size(self):
        order = self._state.order
        return len(self.dataset) if order is None else len(order)

    @property
    def epoch_detail(self):
        if self._epoch_size == 0:
            return float(self.epoch)
        return self.epoch + self.current_position / self._epoch_size

    @property
    def previous_epoch_detail(self):
        return self._previous_epoch_detail

    def _next_step(self, state):
        """The state after the batch following ``state`` and its indices;
        None when a non-repeating iteration is over."""
        return advance(state, self.batch_size, self._repeat,
                       self.order_sampler, len(self.dataset))

    def _commit(self, state):
        """Make ``state`` current: a batch has been handed to the user."""
        self._previous_epoch_detail = self.epoch_detail
        self._state = state

    def _stop(self):
        """End of a non-repeating iteration."""
        self._previous_epoch_detail = self.epoch_detail
        raise StopIteration

    def serialize(self, serializer):
        """Save or load ``current_position``, ``epoch``, ``is_new_epoch``,
        the order (when shuffling), the order sampler (``order_sampler``,
        if it has a ``serialize`` method and no false ``has_state``) and
        ``previous_epoch_detail`` (-1 for None, as Chainer stores it).

        Snapshots of older Chainer versions load too: one with the order
        under the other key, or without ``previous_epoch_detail``, which is
        then estimated as one batch before the loaded position.
        """
        position = serializer('current_position', self.current_position)
        epoch = serializer('epoch', self.epoch)
        is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)
        order = self._state.order
        if order is not None:
            # A deserializer copies into ``order`` in place and may return
            # it; a serializer returns what it stored.
            loaded = _serialize_first_present(serializer, self._order_keys,
                                              order)
            if loaded is not None:
                order = numpy.asarray(loaded)
        self._state = EpochState(int(position), int(epoch),
                                 bool(is_new_epoch), order)
        sampler = self.order_sampler
        if hasattr(sampler, 'serialize') and getattr(sampler, 'has_state',
                                                     True):
            try:
                self.order_sampler.serialize(serializer['order_sampler'])
            except KeyError:
                pass  # a snapshot of Chainer, which saves no sampler
        previous = self._previous_epoch_detail
        try:
            previous = serializer('previous_epoch_detail',
                                  -1.0 if previous is None else previous)
        except KeyError:
            previous = self._estimated_previous_epoch_detail()
        self._previous_epoch_detail = None if previous < 0 \
            else float(previous)

    def _estimated_previous_epoch_detail(self):
        """``epoch_detail`` one batch ago, at least 0; -1 (None) at the
        very start."""
        if self.epoch_detail == 0 or self._epoch_size == 0:
            return -1.0
        return max(self.epoch_detail - self.batch_size / self._epoch_size,
                   0.0)
