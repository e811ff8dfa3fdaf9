"""Reading and writing the NPZ archive: a ZIP of ``.npy`` members.

Values are read with ``allow_pickle=False``, so loading a file never runs
code from it. The one exception to "no pickles" is Chainer's way of storing
None: a 0-d object array holding None, which NumPy can only write as a
pickle. Kusari writes None the same way, so that files move both ways
between Chainer and Kusari, and reads it back with an unpickler that knows
nothing but NumPy's array reconstruction and rejects anything other than
that exact None array.
"""
import contextlib
import os
import pickle
import zipfile
import zlib

import numpy

from kusari.serializers.serializer import SerializationError

# What a truncated, corrupt or foreign file makes NumPy and zipfile raise.
_UNREADABLE = (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError)
_HEADER_READERS = {
    (1, 0): numpy.lib.format.read_array_header_1_0,
    (2, 0): numpy.lib.format.read_array_header_2_0,
}
# NumPy's array reconstructor, reached without naming its private module.
_RECONSTRUCT = numpy.empty(0).__reduce__()[0]


def none_marker():
    """The array that stands for a stored None."""
    return numpy.asarray(None)


def is_none_marker(array):
    return (array.dtype.hasobject and array.shape == ()
            and array[()] is None)


def describe(file):
    """Name a file (path or file object) or an archive for messages."""
    if isinstance(file, (str, os.PathLike)):
        return repr(os.fspath(file))
    archive = getattr(file, 'zip', None)
    name = getattr(file if archive is None else archive, 'filename', None)
    name = name or getattr(file, 'name', None)
    return repr(name) if isinstance(name, str) else 'the given NPZ data'


def write(file, arrays, compress):
    """Write the dict ``arrays`` (key -> NumPy array) to ``file``."""
    method = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(file, mode='w', compression=method,
                         allowZip64=True) as archive:
        for key, array in arrays.items():
            with archive.open(key + '.npy', mode='w',
                              force_zip64=True) as member:
                numpy.lib.format.write_array(
                    member, array, allow_pickle=is_none_marker(array))


@contextlib.contextmanager
def opened(caller, file):
    """Open ``file`` (a path or a binary file object) as an NPZ archive."""
    try:
        archive = numpy.load(file, allow_pickle=False)
    except FileNotFoundError:
        raise
    except _UNREADABLE as error:
        raise SerializationError(
            f'{caller}: {describe(file)} is not a readable NPZ archive: '
            f'{_what_is_wrong(file, error)}') from error
    if not isinstance(archive, numpy.lib.npyio.NpzFile):
        raise SerializationError(
            f'{caller}: {describe(file)} holds a single .npy array, not an '
            f'NPZ archive')
    with archive:
        yield archive


def _what_is_wrong(file, error):
    """Say why NumPy could not open the NPZ archive ``file``, from its first
    bytes where it is a path (NumPy takes any file that is neither a ZIP nor
    a ``.npy`` array for a pickle, and says so)."""
    detail = f'{type(error).__name__}: {error}'
    if not isinstance(file, (str, os.PathLike)):
        return detail
    try:
        with open(file, 'rb') as stream:
            head = stream.read(4)
    except OSError:
        return detail
    if not head:
        return 'the file is empty'
    if head.startswith(b'PK'):
        return (f'it begins as a ZIP archive but is cut short or damaged '
                f'({detail})')
    return (f'it is not a ZIP archive, as an NPZ file is (it begins with '
            f'{head!r}): another format, or overwritten')


def read(archive, key, caller):
    """Return the array stored under ``key``, or None for a stored None."""
    try:
        array = archive[key]
    except _UNREADABLE as error:
        array = _read_refused(archive, key, caller, error)
    return None if is_none_marker(numpy.asarray(array)) else array


def _read_refused(archive, key, caller, error):
    """Read a member NumPy would not: Chainer's None, or fail naming it."""
    try:
        pickled, array = _unpickle(archive, key)
    except (*_UNREADABLE, KeyError):
        pickled, array = False, None
    if isinstance(array, numpy.ndarray) and is_none_marker(array):
        return array
    if pickled:
        raise SerializationError(
            f'{caller}: {key!r} in {describe(archive)} holds a pickled '
            f'object other than None; it is not loaded, since unpickling '
            f'can run code') from error
    raise SerializationError(
        f'{caller}: cannot read {key!r} from {describe(archive)}, the '
        f'archive is corrupt ({type(error).__name__}: {error})') from error


def _unpickle(archive, key):
    """Return (whether the member is a pickle, the array or None)."""
    with archive.zip.open(_member_name(archive, key)) as member:
        version = numpy.lib.format.read_magic(member)
        _, _, dtype = _HEADER_READERS[version](member)
        if not dtype.hasobject:
            return False, None
        try:
            return True, _NoneUnpickler(member).load()
        except Exception:  # whatever stops the rebuild, the pickle is refused
            return True, None


def _member_name(archive, key):
    name = key + '.npy'
    return name if name in archive.zip.namelist() else key


class _NoneUnpickler(pickle.Unpickler):
    """Unpickles NumPy arrays and nothing else: no other global resolves."""

    _GLOBALS = {
        ('numpy', 'ndarray'): numpy.ndarray,
        ('numpy', 'dtype'): numpy.dtype,
        # The reconstructor, under its NumPy 2 and NumPy 1 module names.
        ('numpy._core.multiarray', '_reconstruct'): _RECONSTRUCT,
        ('numpy.core.multiarray', '_reconstruct'): _RECONSTRUCT,
    }

    def find_class(self, module, name):
        try:
            return self._GLOBALS[module, name]
        except KeyError:
            raise pickle.UnpicklingError(
                f'refusing to unpickle {module}.{name}') from None
