"""The iterator that reads examples one by one in the calling thread."""
from kusari.datasets.iterators import _epoch


class SerialIterator(_epoch.EpochIterator):
    """Dataset iterator that reads the examples of each batch in turn.

    Args:
        dataset: Anything with ``len()`` and integer indexing (a list, an
            array, a dataset object).
        batch_size (int): Number of examples in a batch.
        repeat (bool): If True, iterate for ever, epoch after epoch (a
            batch that crosses the end of an epoch is completed from the
            next one). If False, stop after one epoch, whose last batch may
            be short.
        shuffle (bool): Shuffle the order every epoch. None (the default)
            shuffles unless an ``order_sampler`` is given.
        order_sampler (callable): Gives the order of every epoch (see
            :class:`OrderSampler`); requires ``shuffle=None``.

    A batch is a list of ``dataset[i]``. The iteration state is saved and
    restored by :meth:`serialize`.
    """

    def __next__(self):
        step = self._next_step(self._state)
        if step is None:
            self._stop()
        state, indices = step
        dataset = self.dataset
        batch = [dataset[i] for i in indices.tolist()]
        self._commit(state)
        return batch
