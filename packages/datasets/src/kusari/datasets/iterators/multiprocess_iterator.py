"""The iterator that loads examples in worker processes."""
import numbers
import os
import weakref

from kusari.datasets.iterators import _epoch
from kusari.datasets.iterators import _prefetch
from kusari.datasets.iterators import _process_pool


def _check_seconds(name, value):
    if value is None:
        return
    if not isinstance(value, numbers.Real) or isinstance(value, bool) \
            or not value > 0:
        raise ValueError(
            f'MultiprocessIterator: {name} must be a positive number of '
            f'seconds or None, got {value!r}')


def _available_cpus():
    if hasattr(os, 'sched_getaffinity'):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class MultiprocessIterator(_prefetch.PrefetchIterator):
    """Dataset iterator that loads examples in worker processes.

    Processes help where loading is CPU-bound Python (augmentation,
    decoding). Batches and epochs are exactly those of
    :class:`SerialIterator` with the same arguments; ``n_prefetch`` batches
    load while the current one is in use. Each batch is split into one
    chunk per worker.

    Workers start at the first batch, with multiprocessing's default start
    method (``fork`` on Linux up to Python 3.13: the dataset is shared
    copy-on-write; ``forkserver`` or ``spawn`` elsewhere, or if set with
    ``multiprocessing.set_start_method``: the dataset is pickled to each
    worker). Examples come back pickled through a pipe per worker.

    Args:
        dataset: Anything with ``len()`` and integer indexing.
        batch_size (int): Number of examples in a batch.
        repeat (bool): Iterate for ever (True) or for one epoch (False).
        shuffle (bool): Shuffle every epoch; None shuffles unless an
            ``order_sampler`` is given.
        n_processes (int): Number of workers; None uses one per CPU
            available to this process.
        n_prefetch (int): Number of batches loaded ahead.
        shared_mem (int): Accepted for compatibility and kept as an
            attribute: Chainer's bound on an example's size in shared
            memory. Examples here travel pickled, with no size bound.
        order_sampler (callable): Gives the order of every epoch;
            requires ``shuffle=None``.
        dataset_timeout (float): Seconds of waiting for a batch after
            which :class:`MultiprocessIterator.TimeoutWarning` is issued;
            None never warns.
        maxtasksperchild (int): Chunks a worker loads before it is
            replaced by a fresh process; None keeps workers for good.
        worker_timeout (float): Seconds of waiting for a batch after which
            the workers are deemed hung: they are stopped and TimeoutError
            is raised. None waits for ever. (Not in Chainer.)

    A worker that dies (a crash in the dataset, the out-of-memory killer)
    raises RuntimeError naming the examples it was loading; the iterator
    does not advance on such errors, nor on exceptions from the dataset,
    which are re-raised with the worker's traceback. Call :meth:`finalize`
    (or use ``with``) to stop the workers; they are stopped too when the
    iterator is garbage-collected.
    """

    class TimeoutWarning(RuntimeWarning):
        """A batch took longer than ``dataset_timeout`` to load."""

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None,
                 n_processes=None, n_prefetch=1, shared_mem=None,
                 order_sampler=None, dataset_timeout=30.0,
                 maxtasksperchild=None, *, worker_timeout=300.0):
        owner = 'MultiprocessIterator'
        _epoch.check_positive_int(owner, 'n_processes', n_processes,
                                  allow_none=True)
        _epoch.check_positive_int(owner, 'n_prefetch', n_prefetch)
        _epoch.check_positive_int(owner, 'shared_mem', shared_mem,
                                  allow_none=True)
        _epoch.check_positive_int(owner, 'maxtasksperchild',
                                  maxtasksperchild, allow_none=True)
        _check_seconds('dataset_timeout', dataset_timeout)
        _check_seconds('worker_timeout', worker_timeout)
        self.n_processes = int(n_processes or _available_cpus())
        self.n_prefetch = int(n_prefetch)
        self.shared_mem = shared_mem
        self.dataset_timeout = dataset_timeout
        self.maxtasksperchild = maxtasksperchild
        self.worker_timeout = worker_timeout
        pool = _process_pool.ProcessPool(
            dataset, self.n_processes, maxtasksperchild, dataset_timeout,
            worker_timeout, self.TimeoutWarning)
        super().__init__(dataset, batch_size, repeat, shuffle, order_sampler,
                         pool, depth=self.n_prefetch)
        weakref.finalize(self, pool.close)
