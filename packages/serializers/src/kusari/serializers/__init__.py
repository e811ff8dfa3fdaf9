"""Kusari serializers: save and load objects in NPZ and HDF5 files.

An object takes part through its ``serialize(serializer)`` method; see
:mod:`kusari.serializers.serializer`. Saving to a path is atomic. Loading
runs no code from a file: NPZ archives are read without unpickling anything
but Chainer's stored None, and HDF5 holds no pickles. Pickled data can run
any code when loaded: unpickle only files you trust.
"""
from kusari.serializers.hdf5 import (  # NOQA
    HDF5Deserializer, HDF5Serializer, load_hdf5, save_hdf5)
from kusari.serializers.npz import (  # NOQA
    DictionarySerializer, NpzDeserializer, load_npz, save_npz)
from kusari.serializers.serializer import (  # NOQA
    AbstractSerializer, Deserializer, SerializationError, Serializer)


def __getattr__(name):
    """``__version__``, read from the installed metadata when asked.

    The other parts use ``kusari.array.parts.module_getattr``; this one
    needs no other part, so it reads its version itself.
    """
    if name == '__version__':
        import importlib.metadata
        return importlib.metadata.version('kusari-serializers')
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
