"""MultiprocessIterator: workers, their failures, and cleaning up.

Every wait here is bounded (worker_timeout, or a deadline in the test), and
every test checks that no worker process outlives it.
"""
import gc
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy
import pytest

from kusari.datasets.iterators import MultiprocessIterator, SerialIterator


@pytest.fixture(autouse=True)
def no_leaked_workers():
    yield
    gc.collect()
    deadline = time.monotonic() + 5
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert multiprocessing.active_children() == []


def assert_gone(pids):
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def make(dataset, batch_size=4, **kwargs):
    kwargs.setdefault('n_processes', 2)
    kwargs.setdefault('worker_timeout', 20)
    kwargs.setdefault('shuffle', False)
    return MultiprocessIterator(dataset, batch_size, **kwargs)


class Faulty:
    """Examples are their indices, except ``bad``, which calls ``action``."""

    def __init__(self, n, bad, action):
        self.n, self.bad, self.action = n, bad, action

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i == self.bad:
            return self.action()
        return i


def raise_key_error():
    raise KeyError('no such example')


class Unpicklable(Exception):
    def __init__(self, a, b):
        super().__init__(a)


def raise_unpicklable():
    raise Unpicklable('odd', 'args')


def exit_3():
    os._exit(3)


def kill_self():
    os.kill(os.getpid(), signal.SIGKILL)


def sleep_long():
    time.sleep(60)


class Sleepy:
    """Each example takes ``seconds``."""

    def __init__(self, n, seconds):
        self.n, self.seconds = n, seconds

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        time.sleep(self.seconds)
        return i


class WhoAmI:
    def __len__(self):
        return 1000

    def __getitem__(self, i):
        return os.getpid(), int(numpy.random.randint(2 ** 62))


def test_error_in_dataset_is_reraised_and_iterator_stays():
    with make(Faulty(8, 5, raise_key_error)) as it:
        assert next(it) == [0, 1, 2, 3]
        for _ in range(2):  # a retry meets the same error
            with pytest.raises(KeyError, match='no such example') as info:
                next(it)
            assert 'raise_key_error' in str(info.value.__cause__)
            assert (it.epoch_detail, it.current_position) == (0.5, 4)


def test_unpicklable_error_becomes_runtime_error():
    with make(Faulty(8, 1, raise_unpicklable)) as it:
        with pytest.raises(RuntimeError, match='Unpicklable: odd'):
            next(it)


@pytest.mark.parametrize('action, how', [
    (exit_3, 'exited with code 3'),
    (kill_self, 'killed by signal SIGKILL'),
])
def test_dead_worker_raises_clearly(action, how):
    it = make(Faulty(8, 6, action))
    assert next(it) == [0, 1, 2, 3]
    pids = it._loader.pids
    start = time.monotonic()
    with pytest.raises(RuntimeError, match=how) as info:
        next(it)
    assert time.monotonic() - start < 5
    assert 'examples [6, 7]' in str(info.value)
    assert it.current_position == 4
    assert_gone(pids)
    # The next batch starts new workers, which meet the same crash.
    with pytest.raises(RuntimeError, match=how):
        next(it)
    it.finalize()


def test_hanging_worker_warns_then_raises():
    it = make(Faulty(8, 2, sleep_long), dataset_timeout=0.2,
              worker_timeout=1.0)
    start = time.monotonic()
    with pytest.warns(MultiprocessIterator.TimeoutWarning, match='stalled'):
        with pytest.raises(TimeoutError, match=r'examples \[2, 3\]'):
            next(it)
    assert 1.0 <= time.monotonic() - start < 5
    assert it._loader.pids == []
    assert it.current_position == 0


def test_slow_batch_only_warns():
    with make(Sleepy(4, 0.15), n_processes=1, dataset_timeout=0.05) as it:
        with pytest.warns(MultiprocessIterator.TimeoutWarning):
            assert next(it) == [0, 1, 2, 3]


def test_finalize_stops_workers_and_next_restarts_them():
    it = make(list(range(10)))
    assert next(it) == [0, 1, 2, 3]
    pids = it._loader.pids
    assert len(pids) == 2
    it.finalize()
    assert_gone(pids)
    assert next(it) == [4, 5, 6, 7]
    assert set(it._loader.pids).isdisjoint(pids)
    it.finalize()


def test_garbage_collection_stops_workers():
    it = make(list(range(10)))
    next(it)
    pids = it._loader.pids
    del it
    gc.collect()
    assert_gone(pids)


def test_finalize_stops_a_busy_worker():
    it = make(Sleepy(100, 60), n_processes=1, batch_size=1)
    it._submit_ahead(required=True)  # the worker is now asleep for 60 s
    pids = it._loader.pids
    start = time.monotonic()
    it.finalize()
    assert time.monotonic() - start < 5
    assert_gone(pids)


def test_maxtasksperchild_replaces_workers():
    it = make(WhoAmI(), batch_size=2, maxtasksperchild=1, n_prefetch=2)
    seen = set()
    for _ in range(4):
        seen.update(pid for pid, _ in next(it))
    assert len(seen) >= 6
    it.finalize()


def test_workers_draw_different_random_numbers():
    with make(WhoAmI(), batch_size=2) as it:
        (pid0, r0), (pid1, r1) = next(it)
    assert pid0 != pid1 and r0 != r1


def test_prefetch_ahead_is_loaded_while_caller_works():
    with make(Sleepy(64, 0.05), batch_size=2, n_prefetch=3) as it:
        next(it)
        time.sleep(0.3)  # three batches load meanwhile
        start = time.monotonic()
        for _ in range(3):
            next(it)
        assert time.monotonic() - start < 0.1


def test_arguments_are_checked():
    for kwargs, message in [
            (dict(n_processes=0), 'n_processes must be a positive int'),
            (dict(n_prefetch=0), 'n_prefetch must be a positive int'),
            (dict(shared_mem=-1), 'shared_mem must be a positive int'),
            (dict(maxtasksperchild=0), 'maxtasksperchild must be'),
            (dict(dataset_timeout=0), 'dataset_timeout must be a positive'),
            (dict(worker_timeout='1'), 'worker_timeout must be a positive')]:
        with pytest.raises(ValueError, match=message):
            MultiprocessIterator([1, 2], 1, **kwargs)


def test_defaults():
    it = MultiprocessIterator([1, 2], 1, shared_mem=1 << 20)
    assert it.n_processes >= 1 and it.n_prefetch == 1
    assert it.shared_mem == 1 << 20 and it.dataset_timeout == 30.0
    assert it._loader.pids == []  # nothing started yet


def test_faster_than_serial_on_slow_dataset():
    dataset = Sleepy(10 ** 6, 0.001)

    def seconds(it, n_batches=12):
        next(it)  # start-up not counted
        start = time.perf_counter()
        for _ in range(n_batches):
            next(it)
        return time.perf_counter() - start

    serial = seconds(SerialIterator(dataset, 32, shuffle=False))
    with make(dataset, 32) as it:
        parallel = seconds(it)
    assert parallel < 0.8 * serial, (parallel, serial)


SPAWNED = textwrap.dedent('''
    import multiprocessing, sys
    sys.path.insert(0, {tests!r})
    from kusari.datasets.iterators import MultiprocessIterator
    from test_iterator_multiprocess import Faulty, raise_key_error

    if __name__ == '__main__':
        multiprocessing.set_start_method({method!r})
        with MultiprocessIterator(Faulty(6, 5, raise_key_error), 3,
                                  shuffle=False, n_processes=2,
                                  worker_timeout=30) as it:
            assert next(it) == [0, 1, 2], 'batch'
            try:
                next(it)
            except KeyError:
                pass
            else:
                raise AssertionError('no KeyError')
        print('ok')
''')


@pytest.mark.parametrize('method', ['forkserver', 'spawn'])
def test_other_start_methods(tmp_path, method):
    script = tmp_path / 'run.py'
    script.write_text(SPAWNED.format(
        tests=os.path.dirname(__file__), method=method))
    done = subprocess.run([sys.executable, str(script)], capture_output=True,
                          text=True, timeout=60)
    assert done.stdout.strip() == 'ok', done.stderr


def test_unpicklable_dataset_under_spawn_is_a_clear_error(monkeypatch):
    spawn = multiprocessing.get_context('spawn')
    monkeypatch.setattr(multiprocessing, 'get_context', lambda: spawn)
    it = make(Faulty(4, -1, lambda: None))  # a lambda does not pickle
    with pytest.raises(TypeError, match="'spawn' start method"):
        next(it)
    assert it._loader.pids == []


def test_examples_survive_pickling():
    dataset = [(numpy.full(3, i, numpy.float32), numpy.int32(i))
               for i in range(6)]
    with make(dataset, 3) as it:
        batch = next(it)
    for (x, t), (expected_x, expected_t) in zip(batch, dataset[:3]):
        assert x.dtype == numpy.float32 and type(t) is numpy.int32
        numpy.testing.assert_array_equal(x, expected_x)
        assert t == expected_t
