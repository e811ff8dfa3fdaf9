"""The serializer protocol: what an object's ``serialize`` method talks to.

An object that can be saved defines ``serialize(serializer)`` and, for each
value it owns, writes ``value = serializer(key, value)``; for each
serializable child it calls ``child.serialize(serializer[name])``. The same
method then both saves (a :class:`Serializer` records the values) and loads
(a :class:`Deserializer` fills them in and returns what was stored).
"""


class SerializationError(OSError):
    """A file could not be read as a serialized archive (truncated, corrupt,
    or of another format).

    It is an :class:`OSError`, like the errors h5py raises for unreadable
    files, so ``except OSError`` catches an unreadable archive of either
    format. The message names the file.
    """


class AbstractSerializer:
    """Base of every serializer and deserializer.

    A serializer is a view on one level of a tree of named values: indexing
    it gives the view on a child, calling it saves or loads one value.
    """

    def __getitem__(self, key):
        """Return the serializer of the child named ``key``."""
        raise NotImplementedError(
            f'{type(self).__name__} must define __getitem__')

    def __call__(self, key, value):
        """Save or load ``value`` under ``key``; return the value to keep.

        Args:
            key (str): Name of the value at this level.
            value: An array (NumPy or CuPy), a Python or NumPy scalar, a
                string, or None.
        """
        raise NotImplementedError(
            f'{type(self).__name__} must define __call__')


class Serializer(AbstractSerializer):
    """Base of the serializers that save values."""

    def save(self, obj):
        """Save ``obj`` by calling ``obj.serialize(self)``."""
        obj.serialize(self)


class Deserializer(AbstractSerializer):
    """Base of the deserializers that load values into objects."""

    def load(self, obj):
        """Load ``obj`` in place by calling ``obj.serialize(self)``."""
        obj.serialize(self)


def check_serializable(caller, obj):
    """Raise TypeError unless ``obj`` has a ``serialize`` method."""
    if not callable(getattr(obj, 'serialize', None)):
        raise TypeError(
            f'{caller}: expected an object with a serialize(serializer) '
            f'method (a Link, Optimizer, Trainer, ...), got '
            f'{type(obj).__name__}')
