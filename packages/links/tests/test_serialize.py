"""Saving and loading links through kusari.serializers."""
import numpy
import pytest

from kusari.serializers import DictionarySerializer, load_npz, save_npz
from links_fakes import Linear, Model


def flat(link):
    target = {}
    DictionarySerializer(target).save(link)
    return target


def test_keys_are_paths():
    assert sorted(flat(Model())) == [
        'counter/calls', 'counter/total', 'predictor/l1/W',
        'predictor/l1/b', 'predictor/l2/W', 'predictor/l2/b', 'scale']


def test_npz_round_trip_is_bit_exact(tmp_path):
    model = Model()
    model.counter.total[...] = numpy.float32(1) / 3
    model.counter.calls = 4
    path = tmp_path / 'model.npz'
    save_npz(path, model)
    loaded = Model()
    load_npz(path, loaded)
    for (name, a), (_, b) in zip(model.namedparams(), loaded.namedparams()):
        assert a.array.dtype == b.array.dtype
        assert a.array.tobytes() == b.array.tobytes(), name
    assert loaded.counter.total.tobytes() == model.counter.total.tobytes()
    assert loaded.counter.calls == 4
    assert type(loaded.counter.calls) is int


def test_uninitialized_parameter_saved_as_none_and_loaded_lazily(tmp_path):
    lazy = Linear(None, 2)
    stored = flat(lazy)['W']
    assert stored.dtype.hasobject and stored.item() is None
    save_npz(tmp_path / 'lazy.npz', lazy)
    again = Linear(None, 2)
    load_npz(tmp_path / 'lazy.npz', again)
    assert again.W.array is None
    trained = Linear(3, 2)
    save_npz(tmp_path / 'full.npz', trained)
    load_npz(tmp_path / 'full.npz', again)
    assert again.W.shape == (2, 3)
    numpy.testing.assert_array_equal(again.W.array, trained.W.array)


def test_loading_into_a_different_shape_names_the_key(tmp_path):
    save_npz(tmp_path / 'a.npz', Linear(3, 2))
    with pytest.raises(ValueError, match="'W'"):
        load_npz(tmp_path / 'a.npz', Linear(4, 2))
