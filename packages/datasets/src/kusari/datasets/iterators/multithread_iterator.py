"""The iterator that loads examples with worker threads."""
from concurrent import futures

from kusari.datasets.iterators import _epoch
from kusari.datasets.iterators import _prefetch


def _load(dataset, indices):
    return [dataset[i] for i in indices]


class _ThreadLoader:
    """Loads each batch as ``n_threads`` chunks on a thread pool started at
    the first batch."""

    def __init__(self, dataset, n_threads):
        self._dataset = dataset
        self._n_threads = n_threads
        self._executor = None

    def submit(self, indices):
        if self._executor is None:
            self._executor = futures.ThreadPoolExecutor(
                self._n_threads, thread_name_prefix='MultithreadIterator')
        chunks = _prefetch.split_evenly(indices.tolist(), self._n_threads)
        return [self._executor.submit(_load, self._dataset, chunk)
                for chunk in chunks]

    def result(self, handle):
        batch = []
        for future in handle:
            batch += future.result()
        return batch

    def cancel(self, handle):
        for future in handle:
            future.cancel()

    def close(self):
        if self._executor is not None:
            # Examples being read are finished, queued ones dropped.
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


class MultithreadIterator(_prefetch.PrefetchIterator):
    """Dataset iterator that loads examples with worker threads.

    Threads help where loading waits on I/O or on code that releases the
    GIL (decoding, NumPy). Batches and epochs are exactly those of
    :class:`SerialIterator` with the same arguments; the next batch is
    loaded while the current one is in use.

    Args:
        dataset: Anything with ``len()`` and integer indexing.
        batch_size (int): Number of examples in a batch.
        repeat (bool): Iterate for ever (True) or for one epoch (False).
        shuffle (bool): Shuffle every epoch; None shuffles unless an
            ``order_sampler`` is given.
        n_threads (int): Number of worker threads.
        order_sampler (callable): Gives the order of every epoch;
            requires ``shuffle=None``.

    Call :meth:`finalize` (or use ``with``) to stop the threads.
    """

    # Chainer's keys: its snapshots load here.
    _order_keys = ('_order', 'order')

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None,
                 n_threads=1, order_sampler=None):
        _epoch.check_positive_int(
            'MultithreadIterator', 'n_threads', n_threads)
        self.n_threads = int(n_threads)
        super().__init__(dataset, batch_size, repeat, shuffle, order_sampler,
                         _ThreadLoader(dataset, self.n_threads), depth=1)
