"""Small serializable objects for the tests of kusari.serializers."""
import copy

import numpy

from kusari import serializers


class Tree:
    """Serializes a nested dict: a dict value is a child, any other a value.

    Loaded values replace the ones in the dict, as a ``serialize`` method
    assigns ``value = serializer(key, value)``.
    """

    def __init__(self, values):
        self.values = values

    def serialize(self, serializer):
        for key, value in self.values.items():
            if isinstance(value, dict):
                Tree(value).serialize(serializer[key])
            else:
                self.values[key] = serializer(key, value)


class FailingTree(Tree):
    """Serializes its values, then fails, as a buggy ``serialize`` would."""

    def __init__(self, values, error=RuntimeError('serialize failed')):
        super().__init__(values)
        self.error = error

    def serialize(self, serializer):
        super().serialize(serializer)
        raise self.error


def blank(values):
    """A copy of a nested dict with every array zeroed (same dtype, shape)."""
    blanked = copy.deepcopy(values)
    for key, value in blanked.items():
        if isinstance(value, dict):
            blanked[key] = blank(value)
        elif isinstance(value, numpy.ndarray):
            blanked[key] = numpy.zeros_like(value)
    return blanked


def assert_identical(actual, expected):
    """Nested dicts of arrays equal bit for bit, dtypes included."""
    assert actual.keys() == expected.keys()
    for key, value in expected.items():
        if isinstance(value, dict):
            assert_identical(actual[key], value)
        else:
            assert actual[key].dtype == value.dtype, key
            assert actual[key].shape == value.shape, key
            assert actual[key].tobytes() == value.tobytes(), key


class Format:
    """One file format: its save and load functions, its file suffix."""

    def __init__(self, name, save, load, suffix):
        self.name = name
        self.save = save
        self.load = load
        self.suffix = suffix

    def __repr__(self):
        return self.name


FORMATS = [
    Format('npz', serializers.save_npz, serializers.load_npz, '.npz'),
    Format('hdf5', serializers.save_hdf5, serializers.load_hdf5, '.h5'),
]
