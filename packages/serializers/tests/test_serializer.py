"""The base classes, and the save_and_load testing helpers."""
import os

import numpy
import pytest
from serializer_fakes import Tree

from kusari.serializers import (
    AbstractSerializer, Deserializer, DictionarySerializer, HDF5Deserializer,
    HDF5Serializer, NpzDeserializer, Serializer, testing)


def test_concrete_classes_are_serializers_or_deserializers():
    for cls in (DictionarySerializer, HDF5Serializer):
        assert issubclass(cls, Serializer)
        assert not issubclass(cls, Deserializer)
    for cls in (NpzDeserializer, HDF5Deserializer):
        assert issubclass(cls, Deserializer)
        assert not issubclass(cls, Serializer)
    assert issubclass(Serializer, AbstractSerializer)
    assert issubclass(Deserializer, AbstractSerializer)


def test_abstract_methods_say_what_is_missing():
    class Incomplete(Serializer):
        pass

    with pytest.raises(NotImplementedError, match='Incomplete.*__getitem__'):
        Incomplete()['child']
    with pytest.raises(NotImplementedError, match='Incomplete.*__call__'):
        Incomplete()('key', 1)


def test_save_and_load_call_serialize_with_the_serializer():
    seen = []

    class Recorder:
        def serialize(self, serializer):
            seen.append(serializer)

    serializer, deserializer = Serializer(), Deserializer()
    serializer.save(Recorder())
    deserializer.load(Recorder())
    assert seen[0] is serializer and seen[1] is deserializer


@pytest.mark.parametrize('helper', [testing.save_and_load_npz,
                                    testing.save_and_load_hdf5])
def test_save_and_load_helpers_copy_values(helper):
    source = Tree({'W': numpy.arange(4.0), 'c': {'i': 2, 'n': None}})
    destination = Tree({'W': numpy.zeros(4), 'c': {'i': 0, 'n': 1}})
    helper(source, destination)
    numpy.testing.assert_array_equal(destination.values['W'], [0, 1, 2, 3])
    assert destination.values['c'] == {'i': 2, 'n': None}


def test_save_and_load_uses_a_temporary_file_it_removes():
    calls = []

    def saver(path, obj):
        calls.append(('save', path, obj))
        with open(path, 'w') as f:
            f.write('content')

    def loader(path, obj):
        with open(path) as f:
            calls.append(('load', path, obj, f.read()))

    testing.save_and_load('src', 'dst', 'name.txt', saver, loader)
    (_, saved_path, src), (_, loaded_path, dst, content) = calls
    assert saved_path == loaded_path
    assert os.path.basename(saved_path) == 'name.txt'
    assert (src, dst, content) == ('src', 'dst', 'content')
    assert not os.path.exists(os.path.dirname(saved_path))
