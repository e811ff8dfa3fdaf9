"""Serialization in the HDF5 format.

Needs h5py, the ``hdf5`` extra: ``pip install "kusari-serializers[hdf5]"``.
h5py is imported when an HDF5 serializer is first used, not before; without
it, every HDF5 serializer and function raises RuntimeError, as in Chainer.
Each child is a group and each value a dataset, so the file can be browsed
with any HDF5 tool.
"""
import errno
import os
import shutil

import numpy

from kusari.serializers import _paths, _values, atomic
from kusari.serializers.serializer import (
    Deserializer, SerializationError, Serializer, check_serializable)

_FILTERS = ('gzip', 'lzf')


def _h5py(caller):
    try:
        import h5py
    except ImportError as error:
        raise RuntimeError(
            f'{caller} needs h5py, which is not installed: install the hdf5 '
            f'extra with  pip install "kusari-serializers[hdf5]"') from error
    return h5py


def __getattr__(name):
    # Chainer's ``hdf5._available``: whether h5py can be imported. It is
    # asked each time, since h5py is imported only when first used.
    if name == '_available':
        try:
            _h5py('hdf5')
        except RuntimeError:
            return False
        return True
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')


class HDF5Serializer(Serializer):
    """Serializer that writes values into an HDF5 group.

    Arrays and scalars keep their dtype, strings are stored as UTF-8
    strings, and None as an empty dataset (``h5py.Empty``), as in Chainer.
    Datasets of more than one element are compressed.

    Args:
        group (h5py.Group): Where to write; an ``h5py.File`` is its root
            group.
        compression (int, str or None): A gzip level from 0 to 9,
            ``'gzip'`` or ``'lzf'``, or None for no compression.
    """

    def __init__(self, group, compression=4):
        _check_group('HDF5Serializer', group)
        _check_compression('HDF5Serializer', compression)
        self.group = group
        self.compression = compression

    def __getitem__(self, key):
        name = _paths.child_name('HDF5Serializer', key)
        return HDF5Serializer(self.group.require_group(name), self.compression)

    def __call__(self, key, value):
        h5py = _h5py('HDF5Serializer')
        name = _paths.full_key('HDF5Serializer', '', key)
        array = _values.to_host(
            'HDF5Serializer', f'{self.group.name}/{name}'.lstrip('/'), value)
        options = {}
        if array is None:
            if h5py.version.version_tuple < (2, 7, 0):
                raise RuntimeError(
                    'HDF5Serializer: storing None needs h5py 2.7.0 or later '
                    f'(h5py.Empty), got h5py {h5py.version.version}')
            array = h5py.Empty('f')
        else:
            if array.size > 1:  # HDF5 cannot compress a scalar
                options['compression'] = self.compression
            if array.dtype.kind == 'U':
                options['dtype'] = h5py.string_dtype()
                array = array.astype(object)
        self.group.create_dataset(name, data=array, **options)
        return value


class HDF5Deserializer(Deserializer):
    """Deserializer that reads values from an HDF5 group.

    A child whose group is in the file reads from that group
    (``deserializer['x'].group`` is the group ``x``, as in Chainer); one
    whose group is missing reads nothing, so its values raise KeyError, or
    with ``strict=False`` are left as they are.

    Args:
        group (h5py.Group): Where to read from; an ``h5py.File`` is its root
            group.
        strict (bool): If True, a key missing from the group raises
            KeyError; if False, the value is left as it is.
        path (str): Prefix of the keys to read, as in
            :class:`~kusari.serializers.NpzDeserializer` (a Kusari
            addition; Chainer has only ``group``).
    """

    def __init__(self, group, strict=True, *, path=''):
        _check_group('HDF5Deserializer', group)
        self.group = group
        self.strict = strict
        self.path = _paths.normalize_path('HDF5Deserializer', path)
        # Errors name keys from the group and prefix the user gave: the
        # prefix of the object being loaded, and this one's prefix.
        self._source = _describe(group)
        self._root = self.path
        self._prefix = self.path

    def __getitem__(self, key):
        path = _paths.child_path('HDF5Deserializer', self.path, key)
        member = self.group.get(path)
        if isinstance(member, _h5py('HDF5Deserializer').Group):
            child = HDF5Deserializer(member, strict=self.strict)
        else:
            child = HDF5Deserializer(self.group, strict=self.strict,
                                     path=path)
        child._source = self._source
        child._root = self._root
        child._prefix = _paths.child_path('HDF5Deserializer', self._prefix,
                                          key)
        return child

    def __call__(self, key, value):
        h5py = _h5py('HDF5Deserializer')
        name = _paths.full_key('HDF5Deserializer', self.path, key)
        described = _paths.describe_key(
            self._root, _paths.full_key('HDF5Deserializer', self._prefix, key))
        source = self._source
        try:
            dataset = self.group.get(name)
            if dataset is None:
                if self.strict:
                    raise KeyError(
                        f'HDF5Deserializer: {described} is not in {source}')
                return value
            if not isinstance(dataset, h5py.Dataset):
                raise ValueError(
                    f'HDF5Deserializer: {described} in {source} is a '
                    f'group, not a value')
            loaded = _read(h5py, dataset)
        except OSError as error:
            raise SerializationError(
                f'HDF5Deserializer: cannot read {described} from {source}, '
                f'the file is corrupt ({error})') from error
        return _values.assign(value, loaded, described, source)


def _read(h5py, dataset):
    """The dataset as a NumPy array, or None for a stored None."""
    if dataset.shape is None:
        return None
    string = h5py.check_string_dtype(dataset.dtype)
    if string is not None and string.encoding == 'utf-8':  # a str, not bytes
        return numpy.asarray(dataset.asstr()[()], dtype=str)
    return numpy.asarray(dataset[()])


def _describe(group):
    filename = repr(group.file.filename)
    if group.name == '/':
        return filename
    return f'group {group.name!r} of {filename}'


def _check_group(caller, group):
    h5py = _h5py(caller)
    if not isinstance(group, h5py.Group):
        raise TypeError(
            f'{caller}: group must be an h5py.Group or h5py.File, got '
            f'{type(group).__name__}')


def _check_compression(caller, compression):
    if compression is None or compression in _FILTERS:
        return
    if isinstance(compression, int) and not isinstance(compression, bool) \
            and 0 <= compression <= 9:
        return
    raise ValueError(
        f'{caller}: compression must be a gzip level from 0 to 9, '
        f'{" or ".join(map(repr, _FILTERS))}, or None; got {compression!r}')


def _check_filename(caller, filename):
    if not isinstance(filename, (str, os.PathLike)):
        raise TypeError(
            f'{caller}: filename must be a str or path-like, got '
            f'{type(filename).__name__}')


def save_hdf5(filename, obj, compression=4):
    """Save an object to an HDF5 file.

    Saving is atomic: the file is written under a temporary name in the same
    directory and moved over ``filename`` only once complete, so a failed or
    interrupted save leaves the previous file intact.

    The file is built in memory (as much memory as the file's size) and
    then written by Python: HDF5 writing to the disk itself meets a full
    disk where h5py cannot raise (while it frees its objects), and may
    crash the process. So a full disk raises OSError (ENOSPC) here, before
    anything is written where the free space is known to be too little,
    and the temporary file is removed. What cannot be caught: the process
    being killed while writing (a snapshot extension removes the temporary
    file it leaves at the next start), or running out of memory.

    Args:
        filename (str or path-like): Where to write.
        obj: Object with a ``serialize(serializer)`` method.
        compression (int, str or None): See :class:`HDF5Serializer`.
    """
    h5py = _h5py('save_hdf5')
    check_serializable('save_hdf5', obj)
    _check_filename('save_hdf5', filename)
    _check_compression('save_hdf5', compression)
    with atomic.replacing(filename) as temporary:
        # The core driver without a backing store never touches the disk;
        # the name only identifies the file inside HDF5.
        with h5py.File(temporary, 'w', driver='core',
                       backing_store=False) as file:
            HDF5Serializer(file, compression).save(obj)
            file.flush()
            image = file.id.get_file_image()
        _check_free_space('save_hdf5', temporary, len(image))
        with open(temporary, 'wb') as stream:
            stream.write(image)


def _check_free_space(caller, path, size):
    """Raise OSError (ENOSPC) if the file system of ``path`` has less than
    ``size`` bytes free for this user."""
    try:
        free = shutil.disk_usage(os.path.dirname(path) or '.').free
    except OSError:  # unknown: the write itself will tell
        return
    if free < size:
        raise OSError(
            errno.ENOSPC,
            f'{caller}: {size} bytes to write but only {free} free on the '
            f'file system', path)


def load_hdf5(filename, obj, *, path='', strict=True):
    """Load an object from an HDF5 file, in place.

    HDF5 holds no pickles, so loading runs no code from the file. A
    truncated, corrupt or foreign file raises
    :class:`~kusari.serializers.SerializationError` naming it.

    Args:
        filename (str or path-like): The HDF5 file.
        obj: Object with a ``serialize(serializer)`` method.
        path (str): Prefix of the sub-tree to load (a Kusari addition).
        strict (bool): If True, a key missing from the file raises
            KeyError; if False, the value is left as it is (a Kusari
            addition).
    """
    h5py = _h5py('load_hdf5')
    check_serializable('load_hdf5', obj)
    _check_filename('load_hdf5', filename)
    _paths.normalize_path('load_hdf5', path)
    try:
        file = h5py.File(filename, 'r')
    except FileNotFoundError:
        raise
    except OSError as error:
        raise SerializationError(
            f'load_hdf5: {os.fspath(filename)!r} is not a readable HDF5 '
            f'file ({error})') from error
    with file:
        HDF5Deserializer(file, strict=strict, path=path).load(obj)
