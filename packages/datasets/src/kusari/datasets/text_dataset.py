"""A dataset of the lines of text files, read on demand."""
import contextlib
import functools
import itertools
import os

from kusari.datasets import _per_process
from kusari.datasets import dataset_mixin


def _per_file(name, value, count):
    """Expand an option given once, or once per file, to one per file."""
    if isinstance(value, (list, tuple)):
        if len(value) != count:
            raise ValueError(
                f'TextDataset: {name} must be one value or a list of one '
                f'per file ({count}), got a list of {len(value)}')
        return list(value)
    return [value] * count


def _open_all(paths, options):
    return [open(path, **option) for path, option in zip(paths, options)]


class TextDataset(dataset_mixin.DatasetMixin):
    """Dataset of the lines of one text file, or of parallel text files.

    Only the position of each line is kept in memory; a line is read from
    the file when its example is asked for. Lines keep their trailing
    newline.

    Args:
        paths (str or list of str): A file, whose examples are its lines
            as ``str``; or a list of files of equally many lines, whose
            ``i``-th example is the tuple of their ``i``-th lines.
        encoding, errors, newline: As for :func:`open`; each either one
            value for every file or a list with one per file.
        filter_func (callable): If given, it is called with the lines of
            every position (one argument per file) when the dataset is
            made, and only the positions where it returns true are kept.
    """

    def __init__(self, paths, encoding=None, errors=None, newline=None,
                 filter_func=None):
        self._single = isinstance(paths, (str, os.PathLike))
        paths = [paths] if self._single else list(paths)
        if not paths:
            raise ValueError('TextDataset: paths is an empty list')
        count = len(paths)
        options = [
            {'encoding': e, 'errors': r, 'newline': n}
            for e, r, n in zip(_per_file('encoding', encoding, count),
                               _per_file('errors', errors, count),
                               _per_file('newline', newline, count))]
        opener = functools.partial(_open_all, paths, options)
        self._offsets = _index_lines(paths, opener, filter_func)
        self._files = _per_process.PerProcessFiles(opener)

    def __len__(self):
        return len(self._offsets)

    def get_example(self, i):
        with self._files.lock:
            lines = []
            for f, offset in zip(self._files.get(), self._offsets[i]):
                f.seek(offset)
                lines.append(f.readline())
        return lines[0] if self._single else tuple(lines)

    def close(self):
        """Close the files (they reopen if an example is read again)."""
        self._files.close()


def _index_lines(paths, opener, filter_func):
    """The start offsets of the kept lines, one tuple per position."""
    offsets = []
    with contextlib.ExitStack() as stack:
        files = [stack.enter_context(f) for f in opener()]
        for number in itertools.count():
            starts = [f.tell() for f in files]
            lines = [f.readline() for f in files]
            ended = [not line for line in lines]
            if all(ended):
                return offsets
            if any(ended):
                short = paths[ended.index(True)]
                raise ValueError(
                    'TextDataset: the files must have the same number of '
                    f'lines, but {short} ends after {number} lines')
            if filter_func is None or filter_func(*lines):
                offsets.append(tuple(starts))
