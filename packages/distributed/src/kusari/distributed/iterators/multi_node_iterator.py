"""An iterator whose batches are read on one process and broadcast."""
from kusari.datasets import iterator

_STATE = ('epoch', 'is_new_epoch', 'epoch_detail', 'previous_epoch_detail')


class _MultiNodeIterator(iterator.Iterator):
    """Every process gets the master's batches; the others' iterators are
    not read (they may be over :func:`create_empty_dataset`). Other
    attributes (``batch_size``, ``dataset``, ...) are the wrapped
    iterator's."""

    def __init__(self, actual_iterator, communicator, rank_master):
        self.actual_iterator = actual_iterator
        self.communicator = communicator
        self.rank_master = rank_master
        self._sync_state()

    @property
    def is_master(self):
        return self.communicator.rank == self.rank_master

    def _sync_state(self):
        state = tuple(getattr(self.actual_iterator, name, None)
                      for name in _STATE) if self.is_master else None
        self._state = self.communicator.bcast_obj(
            state, root=self.rank_master)

    def __next__(self):
        if self.is_master:
            try:
                batch, stop = next(self.actual_iterator), False
            except StopIteration:
                batch, stop = None, True
            message = (stop, batch) + tuple(
                getattr(self.actual_iterator, name, None)
                for name in _STATE)
        else:
            message = None
        message = self.communicator.bcast_obj(message,
                                              root=self.rank_master)
        stop, batch, self._state = message[0], message[1], message[2:]
        if stop:
            raise StopIteration
        return batch

    epoch = property(lambda self: self._state[0])
    is_new_epoch = property(lambda self: self._state[1])
    epoch_detail = property(lambda self: self._state[2])
    previous_epoch_detail = property(lambda self: self._state[3])

    def __getattr__(self, name):
        if name == 'actual_iterator':  # not set yet (copy, unpickling)
            raise AttributeError(name)
        return getattr(self.actual_iterator, name)

    def reset(self):
        """Reset the master's iterator (a collective call)."""
        if self.is_master:
            self.actual_iterator.reset()
        self._sync_state()

    def serialize(self, serializer):
        """Save or load the epoch counters, and on the master its iterator.

        No communication: each process may save its own snapshot (or only
        some may save), and each loads its counters back from one.
        """
        if self.is_master:
            self.actual_iterator.serialize(serializer)
        counters = serializer['multi_node']
        epoch, is_new_epoch, detail, previous = self._state
        self._state = (
            int(counters('epoch', epoch)),
            bool(counters('is_new_epoch', is_new_epoch)),
            float(counters('epoch_detail', detail)),
            float(counters('previous_epoch_detail',
                           -1.0 if previous is None else previous)))
        if self._state[3] < 0:
            self._state = self._state[:3] + (None,)

    def finalize(self):
        self.actual_iterator.finalize()


def create_multi_node_iterator(actual_iterator, communicator,
                               rank_master=0):
    """Make an iterator that gives every process the batches
    ``actual_iterator`` of process ``rank_master`` reads.

    Each batch is broadcast (pickled) from the master, so the processes
    of a model split across them see the same examples. Creating it,
    reading it and ``reset`` are collective calls; ``serialize`` is not.

    Args:
        actual_iterator: The iterator (only the master's is read).
        communicator: The communicator.
        rank_master (int): The process that reads.

    Returns:
        The multi-node iterator.
    """
    return _MultiNodeIterator(actual_iterator, communicator, rank_master)
