"""The interface every dataset iterator follows.

An iterator walks over a dataset and returns mini-batches (lists of
examples). It is stateful: it knows where to read next and how far it has
gone, which the training loop and its triggers read through these
attributes:

- ``batch_size``: the number of examples in a batch.
- ``epoch``: the number of completed sweeps over the dataset.
- ``epoch_detail``: ``epoch`` plus the fraction of the current sweep done.
- ``previous_epoch_detail``: ``epoch_detail`` before the last batch, or
  None before the first one.
- ``is_new_epoch``: whether the last batch completed a sweep.

They are attributes, not methods of this class, so that a subclass may hold
them as plain instance attributes or as properties.
"""


class Iterator:
    """Base class of all dataset iterators.

    A subclass implements :meth:`__next__` and, to be resumable from a
    snapshot, :meth:`serialize`. ``with iterator:`` calls :meth:`finalize`
    on leaving the block.

    There is no ``reset`` here, as in Chainer: an iterator that can start
    over defines it, and code that needs a fresh pass over one that does
    not (the ``Evaluator`` extension) iterates over a copy instead.
    """

    def __iter__(self):
        return self

    def __next__(self):
        """Return the next mini-batch, or raise StopIteration at the end."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement __next__')

    def next(self):
        """The next mini-batch (same as ``next(iterator)``)."""
        return self.__next__()

    def finalize(self):
        """Release what the iterator holds (worker processes, threads).

        Does nothing by default; iterators that hold resources override it.
        """

    def serialize(self, serializer):
        """Save or load the iteration state with ``serializer``.

        Stateless by default; iterators that must resume override it.
        """

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.finalize()
