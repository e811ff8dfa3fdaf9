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

__version__ = '0.1.0'
