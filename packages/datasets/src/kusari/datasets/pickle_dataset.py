"""A dataset stored as a sequence of pickles in one file.

Loading a pickle can run arbitrary code: open only files you made or
trust, never ones downloaded from an untrusted source.
"""
import functools
import io
import pickle
import threading

from kusari.datasets import _per_process
from kusari.datasets import dataset_mixin


class PickleDatasetWriter:
    """Writes examples one after another, each as its own pickle.

    Args:
        writer: A binary file object open for writing.
        protocol (int): The pickle protocol.
    """

    def __init__(self, writer, protocol=pickle.HIGHEST_PROTOCOL):
        self._writer = writer
        self._protocol = protocol

    def write(self, x):
        """Append the example ``x``."""
        pickle.dump(x, self._writer, protocol=self._protocol)

    def flush(self):
        self._writer.flush()

    def close(self):
        self._writer.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class PickleDataset(dataset_mixin.DatasetMixin):
    """Dataset of the pickles in a file made by :class:`PickleDatasetWriter`.

    The file is scanned once to find where each pickle starts; an example
    is unpickled from its position when it is asked for. Only read files
    you trust (unpickling can run code).

    Args:
        reader: A seekable binary file object open for reading. A plain
            file object must not be shared by forked processes; use
            :func:`open_pickle_dataset`, which reopens the file in each.
    """

    def __init__(self, reader):
        if not reader.seekable():
            raise ValueError('PickleDataset: reader must be seekable')
        self._reader = reader
        self._lock = threading.Lock()
        self._positions = _pickle_positions(reader)

    def __len__(self):
        return len(self._positions)

    def get_example(self, i):
        with self._lock:
            self._reader.seek(self._positions[i])
            return pickle.load(self._reader)

    def close(self):
        """Close the reader."""
        self._reader.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __getstate__(self):
        return dict(vars(self), _lock=None)

    def __setstate__(self, state):
        vars(self).update(state, _lock=threading.Lock())


def _pickle_positions(reader):
    end = reader.seek(0, io.SEEK_END)
    position = reader.seek(0)
    positions = []
    while position < end:
        try:
            pickle.load(reader)
        except (EOFError, pickle.UnpicklingError) as e:
            raise ValueError(
                f'PickleDataset: the data at byte {position} is not a '
                f'complete pickle ({e}); is the file truncated?') from e
        positions.append(position)
        position = reader.tell()
    return positions


def _open_binary(path):
    return [open(path, 'rb')]


class _ReopeningReader:
    """A binary file reader that reopens the file in each process."""

    def __init__(self, path):
        self._files = _per_process.PerProcessFiles(
            functools.partial(_open_binary, path))

    def _file(self):
        return self._files.get()[0]

    def seekable(self):
        return True

    def seek(self, offset, whence=io.SEEK_SET):
        return self._file().seek(offset, whence)

    def tell(self):
        return self._file().tell()

    def read(self, size=-1):
        return self._file().read(size)

    def readinto(self, buffer):
        return self._file().readinto(buffer)

    def readline(self, size=-1):
        return self._file().readline(size)

    def close(self):
        self._files.close()


def open_pickle_dataset(path):
    """Open the :class:`PickleDataset` stored at ``path``.

    The file is reopened in every process that reads it, so the dataset
    works with multiprocess iterators. Only open files you trust.
    """
    return PickleDataset(_ReopeningReader(path))


def open_pickle_dataset_writer(path, protocol=pickle.HIGHEST_PROTOCOL):
    """Open a :class:`PickleDatasetWriter` that writes a new file at ``path``.
    """
    return PickleDatasetWriter(open(path, 'wb'), protocol)
