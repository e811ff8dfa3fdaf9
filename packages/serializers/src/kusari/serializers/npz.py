"""Serialization in NumPy's NPZ format.

Saving is two steps, because an NPZ archive is written in one go: the
object is first flattened by :class:`DictionarySerializer` into a dict of
``'path/to/key'`` -> array, which is then written. Loading reads the
values straight from the archive with :class:`NpzDeserializer`.
"""
import os

from kusari.serializers import _npz_format, _paths, _values, atomic
from kusari.serializers.serializer import (
    Deserializer, Serializer, check_serializable)


class DictionarySerializer(Serializer):
    """Serializer that flattens an object into a dict of NumPy arrays.

    Each value is stored under its full key, ``'child/grandchild/name'``.
    NumPy arrays are stored as they are (not copied), CuPy arrays are copied
    to the host, scalars and strings become 0-d arrays, and None becomes a
    0-d object array holding None, as in Chainer.

    Args:
        target (dict): The dict to fill; a new one if None.
        path (str): Prefix of every key written.

    Attributes:
        target (dict): The flattened values.
        path (str): The prefix of this serializer's keys.
    """

    def __init__(self, target=None, path=''):
        if target is not None and not isinstance(target, dict):
            raise TypeError(
                f'DictionarySerializer: target must be a dict or None, got '
                f'{type(target).__name__}')
        self.target = {} if target is None else target
        self.path = _paths.normalize_path('DictionarySerializer', path)

    def __getitem__(self, key):
        return DictionarySerializer(
            self.target,
            _paths.child_path('DictionarySerializer', self.path, key))

    def __call__(self, key, value):
        name = _paths.full_key('DictionarySerializer', self.path, key)
        array = _values.to_host('DictionarySerializer', name, value)
        self.target[name] = (
            _npz_format.none_marker() if array is None else array)
        return value


class NpzDeserializer(Deserializer):
    """Deserializer that reads values from an NPZ archive.

    Args:
        npz: The archive, as :func:`numpy.load` returns it (load it with
            ``allow_pickle=False``); a dict from :class:`DictionarySerializer`
            also works.
        path (str): Prefix of the keys to read: ``'updater/model:main/'``
            loads the sub-tree saved under that path.
        strict (bool): If True, a key missing from the archive raises
            KeyError; if False, the value is left as it is.
        ignore_names (str, callable or list of them): Keys to leave as they
            are. A string is compared with the full key in the archive
            (``path`` included); a callable receives that key and returns
            True to skip it.
    """

    def __init__(self, npz, path='', strict=True, ignore_names=None):
        self.npz = npz
        self.path = _paths.normalize_path('NpzDeserializer', path)
        self.strict = strict
        self.ignore_names = _checked_ignore_names(ignore_names)
        # The prefix of the object being loaded, for the paths in errors.
        self._root = self.path

    def __getitem__(self, key):
        child = NpzDeserializer(
            self.npz, _paths.child_path('NpzDeserializer', self.path, key),
            strict=self.strict, ignore_names=self.ignore_names)
        child._root = self._root
        return child

    def __call__(self, key, value):
        name = _paths.full_key('NpzDeserializer', self.path, key)
        if self._ignored(name):
            return value
        described = _paths.describe_key(self._root, name)
        if name not in self.npz:
            if self.strict:
                raise KeyError(
                    f'NpzDeserializer: {described} is not in '
                    f'{_npz_format.describe(self.npz)}')
            return value
        loaded = _npz_format.read(self.npz, name, 'NpzDeserializer')
        return _values.assign(
            value, loaded, described, _npz_format.describe(self.npz))

    def _ignored(self, name):
        return any(name == rule if isinstance(rule, str) else rule(name)
                   for rule in self.ignore_names)


def _checked_ignore_names(ignore_names):
    if ignore_names is None:
        return ()
    rules = (tuple(ignore_names) if isinstance(ignore_names, (list, tuple))
             else (ignore_names,))
    for rule in rules:
        if not (isinstance(rule, str) or callable(rule)):
            raise TypeError(
                f'NpzDeserializer: ignore_names must be a str, a callable '
                f'or a list of them, got an item of type '
                f'{type(rule).__name__}')
    return rules


def serialize(obj):
    """Flatten an object into a dict, as :func:`save_npz` writes it.

    Args:
        obj: Object with a ``serialize(serializer)`` method.

    Returns:
        dict: ``'path/to/key'`` -> NumPy array, by
        :class:`DictionarySerializer`.
    """
    check_serializable('serialize', obj)
    serializer = DictionarySerializer()
    serializer.save(obj)
    return serializer.target


def save_npz(file, obj, compression=True):
    """Save an object to an NPZ file.

    The object is flattened by :class:`DictionarySerializer` first, so an
    error in its ``serialize`` writes nothing. Saving to a path is atomic:
    the archive is written to a temporary file in the same directory and
    moved over ``file`` only once complete, so a failed or interrupted save
    leaves the previous file intact. A file object is written directly
    (there is no file to swap), and from its current position.

    Args:
        file (str, path-like or file object): Where to write.
        obj: Object with a ``serialize(serializer)`` method.
        compression (bool): Compress the archive (deflate) if True.
    """
    check_serializable('save_npz', obj)
    if not isinstance(file, (str, os.PathLike)) and \
            not hasattr(file, 'write'):
        raise TypeError(
            f'save_npz: file must be a path or a binary file object, got '
            f'{type(file).__name__}')
    target = serialize(obj)
    if hasattr(file, 'write'):
        _npz_format.write(file, target, compression)
        return
    with atomic.replacing(file) as temporary:
        with open(temporary, 'wb') as stream:
            _npz_format.write(stream, target, compression)


def load_npz(file, obj, path='', strict=True, ignore_names=None):
    """Load an object from an NPZ file, in place.

    The archive is read with ``allow_pickle=False``: loading never runs
    code from the file (the None values Chainer pickles are read by a
    decoder that accepts nothing else). A value holding any other pickled
    object is refused; unpickle such a file yourself (``numpy.load`` with
    ``allow_pickle=True``) only if you trust where it came from, since a
    pickle can run any code. A truncated, corrupt or foreign file raises
    :class:`~kusari.serializers.SerializationError` naming it; if the damage
    is found only inside a value, the values before it are already loaded.

    Args:
        file (str, path-like or file object): The NPZ file.
        obj: Object with a ``serialize(serializer)`` method.
        path (str): Prefix of the sub-tree to load, e.g.
            ``'updater/model:main/'`` to load a model from a trainer
            snapshot.
        strict (bool): If True, a key missing from the file raises
            KeyError; if False, the value is left as it is.
        ignore_names (str, callable or list of them): Keys to leave as they
            are; see :class:`NpzDeserializer`.
    """
    check_serializable('load_npz', obj)
    # Built before the file is opened, so that bad arguments fail first.
    deserializer = NpzDeserializer(
        None, path=path, strict=strict, ignore_names=ignore_names)
    with _npz_format.opened('load_npz', file) as archive:
        deserializer.npz = archive
        deserializer.load(obj)
