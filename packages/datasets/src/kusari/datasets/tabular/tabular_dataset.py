"""The abstract tabular dataset: rows of named columns, read in batches."""
import numpy

from kusari.array import lazy_cupy
from kusari.datasets import _index
from kusari.datasets import dataset_mixin


# The views the methods of TabularDataset return (slices, concatenations,
# joins, transforms, other modes and converters) are subclasses of it, in
# modules that import this one; kusari.datasets.tabular hands them over
# once, with register_views(), when it is imported.
_view_types = {}


def register_views(*, slice_helper, concat, join, transform, as_mode,
                   with_converter):
    """Give :class:`TabularDataset` the classes of the views its methods
    return (called once, by ``kusari.datasets.tabular``).

    Args:
        slice_helper: What :attr:`TabularDataset.slice` returns, made from
            the dataset: ``slice_helper(dataset)[rows, keys]``.
        concat: ``concat(dataset, *datasets)``, the rows of all.
        join: ``join(dataset, *datasets)``, the columns of all.
        transform: ``transform(dataset, keys, function, batched=...)``.
        as_mode: ``as_mode(dataset, mode)``, the examples as ``mode``.
        with_converter: ``with_converter(dataset, converter)``.
    """
    _view_types.update(slice_helper=slice_helper, concat=concat,
                       join=join, transform=transform, as_mode=as_mode,
                       with_converter=with_converter)


def _as_array(column):
    if isinstance(column, numpy.ndarray) or lazy_cupy.is_cupy_array(column):
        return column
    return numpy.asarray(column)


class TabularDataset(dataset_mixin.DatasetMixin):
    """A dataset whose examples are rows of named columns.

    Reading a batch of rows and a subset of columns at once, through
    :meth:`get_examples`, is what makes it fast: an array-backed column is
    indexed once per batch, not once per example, and a column nobody asks
    for is never computed.

    A subclass implements :meth:`__len__`, :attr:`keys`, :attr:`mode` and
    :meth:`get_examples`; everything else is built on them. An example is
    a tuple of values (``mode`` is :class:`tuple`), a dict keyed by
    :attr:`keys` (``mode`` is :class:`dict`), or, for a single column, the
    value itself (``mode`` is ``None``, the unary mode).
    """

    def __len__(self):
        raise NotImplementedError(
            f'{type(self).__name__} must implement __len__')

    @property
    def keys(self):
        """The names of the columns, a tuple of str."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement keys')

    @property
    def mode(self):
        """:class:`tuple`, :class:`dict` or ``None``: the type of example."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement mode')

    def get_examples(self, indices, key_indices):
        """Read some columns of some rows.

        Args:
            indices: The rows: ``None`` for all, a slice, or a list of
                positions in ``range(len(self))``.
            key_indices: The columns: ``None`` for all, or a tuple of
                positions in :attr:`keys`.

        Returns:
            A tuple with one list or array per requested column, each
            holding the requested rows in order.
        """
        raise NotImplementedError(
            f'{type(self).__name__} must implement get_examples')

    @property
    def slice(self):
        """A view of some rows and columns: ``dataset.slice[rows, keys]``.

        ``rows`` is a slice, a list or array of positions, or a boolean
        mask; ``keys`` (optional) is a key or a position, which gives a
        unary view, or a tuple or list of them, which keeps the mode
        (a unary dataset becomes a tuple one). Nothing is copied.
        """
        return _view_types['slice_helper'](self)

    def _as_example(self, values):
        values = tuple(values)
        if self.mode is tuple:
            return values
        if self.mode is dict:
            return dict(zip(self.keys, values))
        return values[0]

    def fetch(self):
        """All the data, column by column.

        Returns:
            A tuple of columns, a dict from key to column, or in unary
            mode the column itself; each column is a list or an array.
        """
        return self._as_example(self.get_examples(None, None))

    def convert(self, data):
        """Turn the result of :meth:`fetch` into arrays, column by column.

        This is how a batch reaches a model; :meth:`with_converter`
        replaces it.
        """
        if isinstance(data, tuple):
            return tuple(_as_array(column) for column in data)
        if isinstance(data, dict):
            return {key: _as_array(column) for key, column in data.items()}
        return _as_array(data)

    def with_converter(self, converter):
        """A view whose :meth:`convert` calls ``converter``.

        ``converter`` receives the columns as positional arguments (tuple
        mode), keyword arguments (dict mode), or one argument (unary
        mode).
        """
        return _view_types['with_converter'](self, converter)

    def get_example(self, i):
        return self._as_example(
            column[0] for column in self.get_examples([i], None))

    def __getitem__(self, index):
        """An example, or a list of examples for a batch index."""
        length = len(self)
        if not _index.is_batch_index(index):
            return self.get_example(_index.position(self, index, length))
        if not isinstance(index, slice):
            index = _index.positions(self, index, length)
        columns = self.get_examples(index, None)
        return [self._as_example(row) for row in zip(*columns)]

    def concat(self, *datasets):
        """The rows of this dataset followed by those of ``datasets``.

        All must have the same keys; the result has this dataset's mode
        and converter.
        """
        return _view_types['concat'](self, *datasets) if datasets else self

    def join(self, *datasets):
        """The columns of this dataset beside those of ``datasets``.

        All must have the same length and distinct keys; the result has
        the first mode that is not unary (else tuple) and this dataset's
        converter.
        """
        return _view_types['join'](self, *datasets) if datasets else self

    def transform(self, keys, transform):
        """A view whose examples are ``transform`` of this one's.

        Args:
            keys (str or tuple of str): The output keys; a single str
                makes a unary view.
            transform (callable): Takes an example (its values as
                positional arguments in tuple mode, keyword arguments in
                dict mode, one argument in unary mode) and returns the new
                example: a tuple or a dict for tuple keys (which sets the
                view's mode), the value for a single key.
        """
        return _view_types['transform'](self, keys, transform, batched=False)

    def transform_batch(self, keys, transform_batch):
        """Like :meth:`transform`, on whole columns of a batch at once.

        ``transform_batch`` takes the columns (as :meth:`transform` takes
        values) and returns the new columns, each as long as the batch.
        """
        return _view_types['transform'](self, keys, transform_batch,
                                        batched=True)

    def as_tuple(self):
        """A view whose examples are tuples."""
        return _view_types['as_mode'](self, tuple)

    def as_dict(self):
        """A view whose examples are dicts."""
        return _view_types['as_mode'](self, dict)

    # The spellings of Chainer v7.
    astuple = as_tuple
    asdict = as_dict
