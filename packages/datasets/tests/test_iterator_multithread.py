"""MultithreadIterator: what differs from the shared epoch semantics."""
import threading
import time

import pytest

from kusari.datasets.iterators import MultithreadIterator, SerialIterator


class Recorder:
    """Examples are indices; records the threads that read them."""

    def __init__(self, n, seconds=0.0, bad=None):
        self.n, self.seconds, self.bad = n, seconds, bad
        self.threads = set()

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        self.threads.add(threading.current_thread().name)
        time.sleep(self.seconds)
        if i == self.bad:
            raise IndexError(f'bad example {i}')
        return i


def test_loads_on_worker_threads():
    dataset = Recorder(10)
    with MultithreadIterator(dataset, 4, shuffle=False, n_threads=2) as it:
        assert next(it) == [0, 1, 2, 3]
    assert dataset.threads
    assert all(name.startswith('MultithreadIterator')
               for name in dataset.threads)


def test_error_is_reraised_and_iterator_stays():
    with MultithreadIterator(Recorder(8, bad=5), 4, shuffle=False) as it:
        assert next(it) == [0, 1, 2, 3]
        with pytest.raises(IndexError, match='bad example 5'):
            next(it)
        assert it.current_position == 4


def test_finalize_then_continue():
    it = MultithreadIterator(Recorder(10), 4, shuffle=False)
    assert next(it) == [0, 1, 2, 3]
    it.finalize()
    assert next(it) == [4, 5, 6, 7]
    it.finalize()
    assert not [t for t in threading.enumerate()
                if t.name.startswith('MultithreadIterator')]


def test_faster_than_serial_on_io_bound_dataset():
    dataset = Recorder(10 ** 6, seconds=0.001)

    def seconds(it, n_batches=10):
        next(it)
        start = time.perf_counter()
        for _ in range(n_batches):
            next(it)
        return time.perf_counter() - start

    serial = seconds(SerialIterator(dataset, 16, shuffle=False))
    with MultithreadIterator(dataset, 16, shuffle=False, n_threads=4) as it:
        parallel = seconds(it)
    assert parallel < 0.8 * serial, (parallel, serial)


@pytest.mark.parametrize('n_threads', [0, 2.0, None])
def test_bad_n_threads(n_threads):
    with pytest.raises(ValueError, match='n_threads must be a positive int'):
        MultithreadIterator([1], 1, n_threads=n_threads)
