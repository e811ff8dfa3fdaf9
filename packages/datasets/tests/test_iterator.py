"""The Iterator interface, and the epoch semantics every built-in iterator
shares (SerialIterator, MultithreadIterator, MultiprocessIterator)."""
import math

import numpy
import pytest
from hypothesis import given, settings, strategies as st

from kusari.datasets import iterator
from kusari.datasets.iterators import (
    MultiprocessIterator, MultithreadIterator, OrderSampler,
    SerialIterator, ShuffleOrderSampler)


class DictSerializer:
    """Stores values under their keys (a child's prefixed with its name and
    '/'), as a serializer does."""

    def __init__(self, target=None, prefix=''):
        self.target = {} if target is None else target
        self.prefix = prefix

    def __getitem__(self, name):
        return DictSerializer(self.target, f'{self.prefix}{name}/')

    def __call__(self, key, value):
        self.target[self.prefix + key] = value.copy() if isinstance(
            value, numpy.ndarray) else value
        return value


class DictDeserializer:
    """Loads values by key, as a deserializer does: arrays are copied into
    the given array in place, other values converted to the given type."""

    def __init__(self, target, prefix=''):
        self.target = target
        self.prefix = prefix

    def __getitem__(self, name):
        return DictDeserializer(self.target, f'{self.prefix}{name}/')

    def __call__(self, key, value):
        loaded = self.target[self.prefix + key]
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, loaded)
            return value
        return type(value)(loaded)


def make_serial(dataset, batch_size, **kwargs):
    return SerialIterator(dataset, batch_size, **kwargs)


def make_multithread(dataset, batch_size, **kwargs):
    return MultithreadIterator(dataset, batch_size, n_threads=2, **kwargs)


def make_multiprocess(dataset, batch_size, **kwargs):
    return MultiprocessIterator(dataset, batch_size, n_processes=2,
                                n_prefetch=2, worker_timeout=20, **kwargs)


@pytest.fixture(params=[make_serial, make_multithread, make_multiprocess],
                ids=['serial', 'multithread', 'multiprocess'])
def make_iterator(request):
    made = []

    def make(*args, **kwargs):
        it = request.param(*args, **kwargs)
        made.append(it)
        return it

    yield make
    for it in made:
        it.finalize()


def bookkeeping(it):
    return (it.epoch, it.epoch_detail, it.previous_epoch_detail,
            it.is_new_epoch, it.current_position)


# -- the interface --------------------------------------------------------

class Countdown(iterator.Iterator):
    def __init__(self, n):
        self.n = n
        self.finalized = 0

    def __next__(self):
        if self.n == 0:
            raise StopIteration
        self.n -= 1
        return [self.n]

    def finalize(self):
        self.finalized += 1


def test_interface_iterates_and_finalizes_on_with():
    with Countdown(3) as it:
        assert iter(it) is it
        assert it.next() == [2]
        assert list(it) == [[1], [0]]
    assert it.finalized == 1


def test_interface_defaults():
    it = iterator.Iterator()
    it.finalize()
    it.serialize(DictSerializer())
    with pytest.raises(NotImplementedError, match='__next__'):
        next(it)
    # As in Chainer, only an iterator that can start over has reset().
    assert not hasattr(it, 'reset') and not hasattr(Countdown(1), 'reset')


def test_interface_allows_plain_attributes():
    # User iterators (Chainer's tutorials) assign these as attributes.
    it = Countdown(1)
    it.epoch = 0
    it.is_new_epoch = False
    it.current_position = 0
    assert (it.epoch, it.is_new_epoch) == (0, False)


# -- epochs ----------------------------------------------------------------

def test_in_order_repeat_crosses_epoch_boundary(make_iterator):
    it = make_iterator(list(range(10)), 4, shuffle=False)
    assert bookkeeping(it) == (0, 0.0, None, False, 0)
    assert next(it) == [0, 1, 2, 3]
    assert bookkeeping(it) == (0, 0.4, 0.0, False, 4)
    assert next(it) == [4, 5, 6, 7]
    assert bookkeeping(it) == (0, 0.8, 0.4, False, 8)
    assert next(it) == [8, 9, 0, 1]
    assert bookkeeping(it) == (1, 1.2, 0.8, True, 2)
    assert next(it) == [2, 3, 4, 5]
    assert bookkeeping(it) == (1, 1.6, 1.2, False, 6)
    assert next(it) == [6, 7, 8, 9]
    assert bookkeeping(it) == (2, 2.0, 1.6, True, 0)


def test_no_repeat_gives_short_last_batch_then_stops(make_iterator):
    it = make_iterator(list(range(10)), 4, repeat=False, shuffle=False)
    assert it.repeat is False
    assert next(it) == [0, 1, 2, 3]
    assert next(it) == [4, 5, 6, 7]
    assert next(it) == [8, 9]
    assert bookkeeping(it) == (1, 1.0, 0.8, True, 0)
    for _ in range(2):
        with pytest.raises(StopIteration):
            next(it)
    assert it.epoch_detail == 1.0


def test_shuffled_batch_takes_rest_from_next_order(make_iterator):
    dataset = list(range(7))
    it = make_iterator(dataset, 5, order_sampler=ShuffleOrderSampler(
        numpy.random.RandomState(3)))
    first_order = it._state.order.tolist()
    assert sorted(first_order) == dataset
    first = next(it)
    second = next(it)
    assert first + second[:2] == first_order
    second_order = it._state.order.tolist()
    assert second[2:] == second_order[:3]
    assert sorted(second_order) == dataset
    assert (it.epoch, it.is_new_epoch, it.current_position) == (1, True, 3)


def test_batch_larger_than_dataset(make_iterator):
    it = make_iterator([0, 1, 2], 7, shuffle=False)
    assert next(it) == [0, 1, 2, 0, 1, 2, 0]
    assert bookkeeping(it) == (2, 7 / 3, 0.0, True, 1)
    it = make_iterator([0, 1, 2], 7, shuffle=False, repeat=False)
    assert next(it) == [0, 1, 2]
    with pytest.raises(StopIteration):
        next(it)


def test_default_shuffles_each_epoch(make_iterator):
    numpy.random.seed(0)
    dataset = list(range(50))
    it = make_iterator(dataset, 50)
    epochs = [next(it) for _ in range(3)]
    for epoch in epochs:
        assert sorted(epoch) == dataset
    assert epochs[0] != dataset and epochs[0] != epochs[1]


def test_reset_starts_over(make_iterator):
    it = make_iterator(list(range(5)), 2, repeat=False, shuffle=False)
    assert list(it) == [[0, 1], [2, 3], [4]]
    it.reset()
    assert bookkeeping(it) == (0, 0.0, None, False, 0)
    assert list(it) == [[0, 1], [2, 3], [4]]


def test_numpy_array_dataset(make_iterator):
    dataset = numpy.arange(12, dtype=numpy.float32).reshape(6, 2)
    it = make_iterator(dataset, 4, shuffle=False)
    batch = next(it)
    assert len(batch) == 4
    numpy.testing.assert_array_equal(batch[3], [6, 7])


class ReverseSampler(OrderSampler):
    def __init__(self):
        self.calls = []

    def __call__(self, current_order, current_position):
        self.calls.append((current_order.tolist(), current_position))
        return numpy.arange(len(current_order))[::-1]


def test_custom_order_sampler(make_iterator):
    sampler = ReverseSampler()
    it = make_iterator(list(range(4)), 3, order_sampler=sampler)
    assert next(it) == [3, 2, 1]
    assert next(it) == [0, 3, 2]
    # Prefetching iterators may have drawn further orders already.
    assert sampler.calls[:2] == [([0, 1, 2, 3], 0), ([3, 2, 1, 0], 3)]


def test_first_order_sets_the_epoch_size(make_iterator):
    # As in Chainer: an order may repeat examples; its length is the epoch.
    it = make_iterator([1, 2, 3], 2,
                       order_sampler=lambda order, pos: numpy.repeat(
                           numpy.arange(3), 2))
    batches = [next(it) for _ in range(3)]
    assert sorted(sum(batches, [])) == [1, 1, 2, 2, 3, 3]
    assert it.epoch == 1 and it.is_new_epoch
    assert it.previous_epoch_detail == pytest.approx(4 / 6)


def test_order_sampler_of_wrong_length(make_iterator):
    calls = []

    def shrinking(order, position):
        calls.append(position)
        return order[:3] if len(calls) > 1 else order

    it = make_iterator(list(range(4)), 3, order_sampler=shrinking)
    assert next(it) == [0, 1, 2]
    with pytest.raises(ValueError, match='length 3.*previous order, 4'):
        next(it)
    assert it.epoch_detail == 0.75


# -- serialization ---------------------------------------------------------

def test_serialize_mid_epoch_resumes_same_order(make_iterator):
    dataset = list(range(10))
    it = make_iterator(dataset, 3, order_sampler=ShuffleOrderSampler(
        numpy.random.RandomState(0)))
    for _ in range(4):
        next(it)  # epoch 1, position 2
    saved = DictSerializer()
    it.serialize(saved)
    assert saved.target['current_position'] == 2
    assert saved.target['epoch'] == 1
    assert saved.target['is_new_epoch'] is True
    assert saved.target['previous_epoch_detail'] == pytest.approx(0.9)
    # To the end of epoch 1, then into the orders the sampler draws next.
    expected = [next(it) for _ in range(2)]
    later = [next(it) for _ in range(4)]

    restored = make_iterator(dataset, 3, order_sampler=ShuffleOrderSampler(
        numpy.random.RandomState(1)))
    next(restored)
    restored.serialize(DictDeserializer(saved.target))
    assert restored.epoch == 1
    assert restored.epoch_detail == pytest.approx(1.2)
    assert restored.previous_epoch_detail == pytest.approx(0.9)
    assert [next(restored) for _ in range(2)] == expected
    assert restored.epoch == 1 and restored.current_position == 8
    # The sampler's generator is restored too.
    assert [next(restored) for _ in range(4)] == later


@pytest.mark.parametrize('random_state', [
    None, numpy.random.RandomState(0), numpy.random.default_rng(0),
    numpy.random.Generator(numpy.random.MT19937(0))])
def test_shuffle_order_sampler_saves_its_own_generator(random_state):
    sampler = ShuffleOrderSampler(random_state)
    saved = DictSerializer()
    sampler.serialize(saved)
    expected = [sampler(numpy.arange(9), 0) for _ in range(3)]
    assert sampler.has_state is (random_state is not None)
    assert bool(saved.target) is sampler.has_state
    if sampler.has_state:
        sampler.serialize(DictDeserializer(saved.target))
        numpy.testing.assert_array_equal(
            [sampler(numpy.arange(9), 0) for _ in range(3)], expected)


def test_a_snapshot_without_the_samplers_state_loads(make_iterator):
    # Chainer saves no order sampler.
    sampler = ShuffleOrderSampler(numpy.random.RandomState(0))
    it = make_iterator(list(range(10)), 3, order_sampler=sampler)
    saved = DictSerializer()
    it.serialize(saved)
    del saved.target['order_sampler/random_state']
    it.serialize(DictDeserializer(saved.target))
    assert it.current_position == 0


@pytest.mark.parametrize('make, key', [
    (make_serial, 'order'), (make_multiprocess, 'order'),
    (make_multithread, '_order')])
def test_the_order_is_saved_under_chainers_key(make, key):
    # Chainer 7.8.1's MultithreadIterator saves '_order', the others
    # 'order' (found by the differential check): snapshots load both ways.
    it = make(list(range(5)), 2, order_sampler=ShuffleOrderSampler(
        numpy.random.RandomState(0)))
    try:
        next(it)
        saved = DictSerializer()
        it.serialize(saved)
        assert {'order', '_order'} & set(saved.target) == {key}
        numpy.testing.assert_array_equal(saved.target[key], it._state.order)
    finally:
        it.finalize()


def test_the_end_of_a_single_epoch_draws_the_next_order(make_iterator):
    # As Chainer 7.8.1 (found by the differential check): a seeded run
    # draws the same random numbers, so later shuffles match Chainer's.
    numpy.random.seed(0)
    first, second = numpy.random.permutation(7), numpy.random.permutation(7)
    after = numpy.random.randint(100)
    numpy.random.seed(0)
    it = make_iterator(list(range(7)), 3, repeat=False, shuffle=True)
    assert sum(it, []) == first.tolist()
    saved = DictSerializer()
    it.serialize(saved)
    order, = (v for k, v in saved.target.items() if k.endswith('order'))
    numpy.testing.assert_array_equal(order, second)
    assert numpy.random.randint(100) == after


@pytest.mark.parametrize('make', [make_serial, make_multithread])
def test_snapshot_of_older_chainer_loads(make):
    # The order under the other key, and no previous_epoch_detail: it is
    # estimated as one batch before the loaded position.
    it = make(list(range(6)), 2, order_sampler=ShuffleOrderSampler(
        numpy.random.RandomState(0)))
    try:
        batches = [next(it), next(it)]
        saved = DictSerializer()
        it.serialize(saved)
        key, = {'order', '_order'} & set(saved.target)
        saved.target[{'order': '_order', '_order': 'order'}[key]] = \
            saved.target.pop(key)
        del saved.target['previous_epoch_detail']
        restored = make(list(range(6)), 2)
        restored.serialize(DictDeserializer(saved.target))
        assert restored.epoch_detail == pytest.approx(4 / 6)
        assert restored.previous_epoch_detail == pytest.approx(2 / 6)
        assert sorted(sum(batches, []) + next(restored)) == list(range(6))
        restored.finalize()
    finally:
        it.finalize()


def test_serialize_fresh_iterator_keeps_none(make_iterator):
    it = make_iterator(list(range(5)), 2, shuffle=False)
    saved = DictSerializer()
    it.serialize(saved)
    assert 'order' not in saved.target
    assert saved.target['previous_epoch_detail'] == -1.0
    next(it)
    it.serialize(DictDeserializer(saved.target))
    assert bookkeeping(it) == (0, 0.0, None, False, 0)
    assert next(it) == [0, 1]


def test_saving_does_not_disturb_iteration(make_iterator):
    def run(save):
        it = make_iterator(list(range(7)), 3, order_sampler=(
            ShuffleOrderSampler(numpy.random.RandomState(5))))
        batches = []
        for _ in range(6):
            batches.append(next(it))
            if save:
                it.serialize(DictSerializer())
        return batches

    assert run(save=True) == run(save=False)


# -- properties, against a model of the semantics ---------------------------

@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 9), batch_size=st.integers(1, 12),
       repeat=st.booleans(), shuffle=st.booleans(),
       n_batches=st.integers(1, 8))
def test_serial_matches_model(n, batch_size, repeat, shuffle, n_batches):
    it = SerialIterator(list(range(n)), batch_size, repeat=repeat,
                        shuffle=shuffle)
    consumed = []
    assert it.previous_epoch_detail is None
    previous = 0.0
    for _ in range(n_batches):
        if not repeat and len(consumed) == n:
            with pytest.raises(StopIteration):
                next(it)
            break
        batch = next(it)
        epochs_before = len(consumed) // n
        consumed += batch
        expected_size = batch_size if repeat else min(
            batch_size, n - len(consumed) + len(batch))
        assert len(batch) == expected_size
        assert it.epoch == len(consumed) // n
        assert it.epoch_detail == pytest.approx(len(consumed) / n)
        assert it.previous_epoch_detail == pytest.approx(previous)
        assert it.is_new_epoch == (it.epoch > epochs_before)
        previous = it.epoch_detail
    for start in range(0, len(consumed) - n + 1, n):
        epoch = consumed[start:start + n]
        assert sorted(epoch) == list(range(n))
        if not shuffle:
            assert epoch == list(range(n))


@pytest.mark.parametrize('make', [make_multithread, make_multiprocess],
                         ids=['multithread', 'multiprocess'])
def test_parallel_iterators_equal_serial(make):
    dataset = list(range(23))
    serial = SerialIterator(dataset, 5, order_sampler=ShuffleOrderSampler(
        numpy.random.RandomState(7)))
    with make(dataset, 5, order_sampler=ShuffleOrderSampler(
            numpy.random.RandomState(7))) as parallel:
        for _ in range(12):
            assert next(parallel) == next(serial)
            assert bookkeeping(parallel) == bookkeeping(serial)


class CountingSampler(OrderSampler):
    def __init__(self):
        self.calls = 0

    def __call__(self, order, position):
        self.calls += 1
        return numpy.roll(order, 1)


def test_the_sampler_is_called_when_the_batch_ending_the_epoch_is_taken(
        make_iterator):
    # A sampler drawing from numpy.random must draw at the same moment in
    # every iterator (a snapshot in between saves numpy.random's state with
    # the batches handed out): prefetching stops before the end of an epoch.
    sampler = CountingSampler()
    it = make_iterator(list(range(10)), 4, order_sampler=sampler)
    calls = []
    for _ in range(6):
        next(it)
        calls.append(sampler.calls)
    assert calls == [1, 1, 2, 2, 3, 3]


# -- arguments ---------------------------------------------------------------

def test_shuffle_and_order_sampler_are_exclusive(make_iterator):
    with pytest.raises(ValueError, match='shuffle=True.*order_sampler'):
        make_iterator([1, 2], 1, shuffle=True,
                      order_sampler=ShuffleOrderSampler())


@pytest.mark.parametrize('batch_size', [0, -1, 1.5, True, None])
def test_bad_batch_size(make_iterator, batch_size):
    with pytest.raises(ValueError, match='batch_size must be a positive'):
        make_iterator([1, 2], batch_size)


def test_bad_dataset_and_sampler(make_iterator):
    with pytest.raises(TypeError, match='dataset must support len'):
        make_iterator(iter([1, 2]), 1)
    with pytest.raises(TypeError, match='order_sampler must be callable'):
        make_iterator([1, 2], 1, order_sampler=3)


def test_empty_dataset(make_iterator):
    with pytest.raises(ValueError, match='empty dataset'):
        next(make_iterator([], 2))
    with pytest.raises(StopIteration):
        next(make_iterator([], 2, repeat=False))


# -- order samplers ----------------------------------------------------------

def test_shuffle_order_sampler_is_reproducible():
    orders = [ShuffleOrderSampler(numpy.random.RandomState(0))(
        numpy.arange(20), 0) for _ in range(2)]
    numpy.testing.assert_array_equal(*orders)
    assert sorted(orders[0].tolist()) == list(range(20))
    generator = ShuffleOrderSampler(numpy.random.default_rng(0))
    assert sorted(generator(numpy.arange(5), 2).tolist()) == list(range(5))


def test_shuffle_order_sampler_default_uses_global_state():
    sampler = ShuffleOrderSampler()
    numpy.random.seed(4)
    first = sampler(numpy.arange(30), 0)
    numpy.random.seed(4)
    numpy.testing.assert_array_equal(sampler(numpy.arange(30), 0), first)


def test_shuffle_order_sampler_rejects_bad_random_state():
    with pytest.raises(TypeError, match='random_state must be'):
        ShuffleOrderSampler(42)


def test_order_sampler_base_is_abstract():
    with pytest.raises(NotImplementedError):
        OrderSampler()(numpy.arange(3), 0)


def test_epoch_detail_is_fraction():
    it = SerialIterator(list(range(3)), 2, shuffle=False)
    next(it)
    assert math.isclose(it.epoch_detail, 2 / 3)
