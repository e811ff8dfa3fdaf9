"""The default implementation of dataset indexing."""
from kusari.datasets import _index


class DatasetMixin:
    """Gives a dataset Chainer's indexing from ``get_example`` and ``len``.

    A subclass implements :meth:`__len__` and :meth:`get_example`; this
    class turns ``dataset[i]`` (negative ``i`` counting from the end) into
    ``get_example`` on a position in ``range(len(dataset))``, and a slice,
    a list or an integer array of indices into a list of examples.
    """

    def __getitem__(self, index):
        """One example for an integer, a list of examples for a batch index.

        Raises:
            IndexError: an index is out of range; the message names the
                dataset, the index and the length.
        """
        length = len(self)
        if _index.is_batch_index(index):
            return [self.get_example(i)
                    for i in _index.positions(self, index, length)]
        return self.get_example(_index.position(self, index, length))

    def __len__(self):
        """The number of examples; a subclass must implement it."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement __len__')

    def get_example(self, i):
        """The ``i``-th example, ``0 <= i < len(self)``; to be implemented.

        Args:
            i (int): The position of the example.
        """
        raise NotImplementedError(
            f'{type(self).__name__} must implement get_example')
