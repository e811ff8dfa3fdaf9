"""Behaviour shared by the NPZ and HDF5 formats (the ``fmt`` fixture)."""
import os
import stat
import sys

import hypothesis.extra.numpy as hnp
import numpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from serializer_fakes import FailingTree, Tree, assert_identical, blank

from kusari import serializers
from kusari.serializers import testing

DTYPES = [numpy.float16, numpy.float32, numpy.float64, numpy.int8,
          numpy.int32, numpy.int64, numpy.uint8, numpy.uint64, numpy.bool_]


def special_values(dtype):
    """An array of dtype holding its awkward values (NaN, -0, extremes)."""
    if numpy.issubdtype(dtype, numpy.floating):
        info = numpy.finfo(dtype)
        return numpy.array([numpy.nan, -numpy.inf, numpy.inf, -0.0, 0.0,
                            info.tiny, info.max, info.min, 1 / 3], dtype)
    if dtype is numpy.bool_:
        return numpy.array([True, False, True])
    info = numpy.iinfo(dtype)
    return numpy.array([info.min, info.max, 0, 1], dtype)


def round_trip(fmt, path, values, blanked=None):
    """Save a Tree of values and load into a Tree of ``blanked``."""
    fmt.save(path, Tree(values))
    target = Tree(blank(values) if blanked is None else blanked)
    fmt.load(path, target)
    return target.values


@pytest.fixture
def path(fmt, tmp_path):
    return str(tmp_path / f'saved{fmt.suffix}')


@pytest.mark.parametrize('dtype', DTYPES, ids=lambda d: d.__name__)
def test_arrays_round_trip_bit_exact(fmt, path, dtype):
    values = special_values(dtype)
    saved = {'flat': values, 'grid': numpy.resize(values, (3, 4)).T,
             'scalar': values[:1].reshape(()), 'empty': values[:0],
             'child': {'deep': {'x': values[::-1].copy()}}}
    loaded = round_trip(fmt, path, saved)
    assert_identical(loaded, saved)


def test_arrays_are_filled_in_place(fmt, path):
    saved = {'W': numpy.arange(6, dtype=numpy.float32).reshape(2, 3)}
    destination = numpy.zeros((2, 3), numpy.float32)
    loaded = round_trip(fmt, path, saved, {'W': destination})
    assert loaded['W'] is destination
    numpy.testing.assert_array_equal(destination, saved['W'])


def test_loading_converts_to_the_destination_dtype(fmt, path):
    saved = {'W': numpy.array([1.5, 2.25], numpy.float64)}
    destination = numpy.zeros(2, numpy.float16)
    round_trip(fmt, path, saved, {'W': destination})
    assert destination.dtype == numpy.float16
    numpy.testing.assert_array_equal(destination, [1.5, 2.25])


@pytest.mark.parametrize('value, blanked', [
    (7, 0), (-2 ** 62, 0), (2.5, 0.0), (True, False), (False, True),
    (numpy.float32(1.25), numpy.float32(0)),
    (numpy.float16(-3.5), numpy.float16(0)),
    (numpy.int64(-9), numpy.int64(0)), (numpy.uint8(200), numpy.uint8(0)),
    (numpy.bool_(True), numpy.bool_(False)), (3, 0.0),
    ('héllo, wörld', ''), ('', 'x'), (b'bytes', b''),
], ids=repr)
def test_scalars_round_trip_with_their_type(fmt, path, value, blanked):
    loaded = round_trip(fmt, path, {'v': value}, {'v': blanked})['v']
    assert type(loaded) is type(blanked)
    assert loaded == value


def test_string_arrays_round_trip(fmt, path):
    saved = {'names': numpy.array(['a', 'bé', ''])}
    loaded = round_trip(fmt, path, saved, {'names': None})
    numpy.testing.assert_array_equal(loaded['names'], saved['names'])


@pytest.mark.parametrize('stored, destination', [
    (numpy.float64(1.5), 0), (3.5, 0), (300, numpy.uint8(0)),
    (5, False), (numpy.float64(0.1), numpy.float32(0)),
], ids=repr)
def test_scalar_that_would_lose_information_raises(
        fmt, path, stored, destination):
    with pytest.raises(TypeError, match="'v'.*does not convert safely"):
        round_trip(fmt, path, {'v': stored}, {'v': destination})


def test_array_into_a_scalar_raises(fmt, path):
    # TypeError, as Chainer's int(array) / float(array) raises.
    with pytest.raises(TypeError, match=r"'v'.*shape \(2,\)"):
        round_trip(fmt, path, {'v': numpy.zeros(2)}, {'v': 0.0})


def test_float_array_into_an_int_array_raises(fmt, path):
    with pytest.raises(TypeError, match="'v'.*float64.*int32"):
        round_trip(fmt, path, {'v': numpy.zeros(2)},
                   {'v': numpy.zeros(2, numpy.int32)})


def test_none_round_trips_as_none(fmt, path):
    saved = {'gone': None, 'child': {'also': None}}
    loaded = round_trip(fmt, path, saved,
                        {'gone': numpy.ones(3), 'child': {'also': 4}})
    assert loaded == {'gone': None, 'child': {'also': None}}


def test_none_destination_receives_the_stored_array(fmt, path):
    saved = {'W': numpy.arange(4, dtype=numpy.int16)}
    loaded = round_trip(fmt, path, saved, {'W': None})['W']
    assert isinstance(loaded, numpy.ndarray)
    assert_identical({'W': loaded}, saved)


def test_shape_mismatch_names_key_file_and_shapes(fmt, path):
    saved = {'child': {'W': numpy.zeros((2, 3))}}
    with pytest.raises(ValueError) as info:
        round_trip(fmt, path, saved, {'child': {'W': numpy.zeros((3, 2))}})
    message = str(info.value)
    for part in ("/child/W (key 'child/W')", path, '(2, 3)', '(3, 2)'):
        assert part in message


def test_errors_name_the_path_in_the_object_loaded(fmt, path):
    fmt.save(path, Tree({'model': {'l1': {'W': numpy.zeros((2, 3))}}}))
    with pytest.raises(ValueError,
                       match=r"/l1/W \(key 'model/l1/W'\)"):
        fmt.load(path, Tree({'l1': {'W': numpy.zeros(3)}}), path='model')


def test_missing_key_names_key_and_file(fmt, path):
    fmt.save(path, Tree({'a': numpy.zeros(1)}))
    with pytest.raises(KeyError) as info:
        fmt.load(path, Tree({'a': numpy.zeros(1), 'c': {'b': 1}}))
    assert "'c/b'" in str(info.value) and path in str(info.value)


def test_non_strict_keeps_missing_values(fmt, path):
    fmt.save(path, Tree({'a': numpy.ones(2)}))
    kept = numpy.full(3, 7.0)
    target = Tree({'a': numpy.zeros(2), 'c': {'b': kept, 'n': 5}})
    fmt.load(path, target, strict=False)
    numpy.testing.assert_array_equal(target.values['a'], [1, 1])
    assert target.values['c']['b'] is kept and target.values['c']['n'] == 5
    numpy.testing.assert_array_equal(kept, [7, 7, 7])


@pytest.mark.parametrize('prefix', ['model', 'model/', '/model/'])
def test_path_loads_a_sub_tree(fmt, path, prefix):
    model = {'l1': {'W': numpy.arange(3.0)}, 'b': numpy.float32(2)}
    fmt.save(path, Tree({'model': model, 'step': 10}))
    target = Tree(blank(model))
    fmt.load(path, target, path=prefix)
    assert_identical(target.values, model)


def test_nested_path_prefix(fmt, path):
    fmt.save(path, Tree({'a': {'b': {'W': numpy.ones(2)}}}))
    target = Tree({'W': numpy.zeros(2)})
    fmt.load(path, target, path='a/b')
    numpy.testing.assert_array_equal(target.values['W'], [1, 1])


def test_value_that_is_no_array_is_refused_when_saving(fmt, path):
    with pytest.raises(TypeError, match="'child/bad'.*dict"):
        fmt.save(path, Tree({'child': {'bad': {1: 2}.items()}}))
    assert not os.path.exists(path)


def test_object_without_serialize_is_refused(fmt, path):
    with pytest.raises(TypeError, match='serialize'):
        fmt.save(path, {'W': numpy.zeros(1)})
    with pytest.raises(TypeError, match='serialize'):
        fmt.load(path, object())
    assert not os.path.exists(path)


@pytest.mark.parametrize('key', ['', '/', 3])
def test_bad_key_is_refused(fmt, path, key):
    with pytest.raises(ValueError, match='key'):
        fmt.save(path, Tree({key: 1}))


def test_bad_path_argument(fmt, path):
    fmt.save(path, Tree({'a': 1}))
    with pytest.raises(TypeError, match='path must be a str'):
        fmt.load(path, Tree({'a': 0}), path=3)


# --- atomic saving --------------------------------------------------------

@pytest.mark.parametrize('error', [RuntimeError('boom'), KeyboardInterrupt()],
                         ids=lambda e: type(e).__name__)
def test_failed_save_keeps_the_previous_file(fmt, path, error):
    previous = {'W': numpy.arange(5.0), 'n': 3}
    fmt.save(path, Tree(previous))
    with open(path, 'rb') as f:
        before = f.read()
    with pytest.raises(type(error)):
        fmt.save(path, FailingTree({'W': numpy.zeros(5), 'n': 4}, error))
    with open(path, 'rb') as f:
        assert f.read() == before
    loaded = round_trip(fmt, path + '.copy', previous)
    fmt.load(path, Tree(loaded))
    assert_identical({'W': loaded['W']}, {'W': previous['W']})
    assert loaded['n'] == 3
    assert sorted(os.listdir(os.path.dirname(path))) == sorted(
        [os.path.basename(path), os.path.basename(path) + '.copy'])


def test_failed_first_save_leaves_no_file(fmt, path):
    with pytest.raises(RuntimeError):
        fmt.save(path, FailingTree({'W': numpy.zeros(2)}))
    assert os.listdir(os.path.dirname(path)) == []


@pytest.mark.skipif(sys.platform == 'win32', reason='POSIX file modes')
def test_save_keeps_the_mode_of_the_replaced_file(fmt, path):
    fmt.save(path, Tree({'a': 1}))
    os.chmod(path, 0o640)
    fmt.save(path, Tree({'a': 2}))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640


@pytest.mark.skipif(sys.platform == 'win32', reason='POSIX file modes')
def test_new_file_gets_the_umask_mode(fmt, path):
    umask = os.umask(0o027)
    try:
        fmt.save(path, Tree({'a': 1}))
    finally:
        os.umask(umask)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640


@pytest.mark.skipif(sys.platform == 'win32', reason='needs symlinks')
def test_save_through_a_symlink_replaces_its_target(fmt, path, tmp_path):
    link = tmp_path / f'link{fmt.suffix}'
    fmt.save(path, Tree({'a': 1}))
    link.symlink_to(path)
    fmt.save(str(link), Tree({'a': 2}))
    assert link.is_symlink()
    target = Tree({'a': 0})
    fmt.load(path, target)
    assert target.values['a'] == 2


def test_save_accepts_path_objects(fmt, tmp_path):
    path = tmp_path / f'p{fmt.suffix}'
    fmt.save(path, Tree({'a': 4}))
    target = Tree({'a': 0})
    fmt.load(path, target)
    assert target.values['a'] == 4


def test_save_to_a_missing_directory_raises(fmt, tmp_path):
    with pytest.raises(FileNotFoundError):
        fmt.save(str(tmp_path / 'nowhere' / 'x'), Tree({'a': 1}))


# --- unreadable files -----------------------------------------------------

def test_truncated_file_raises_naming_it(fmt, path):
    fmt.save(path, Tree({'W': numpy.arange(1000.0), 'b': numpy.ones(10)}))
    with open(path, 'rb') as f:
        content = f.read()
    with open(path, 'wb') as f:
        f.write(content[:len(content) // 2])
    with pytest.raises(serializers.SerializationError, match=path):
        fmt.load(path, Tree({'W': numpy.zeros(1000), 'b': numpy.zeros(10)}))


@pytest.mark.parametrize('content', [
    b'', b'\x00' * 3, b'not a model at all' * 100,
    numpy.random.default_rng(0).bytes(4096)], ids=['empty', 'nul', 'text',
                                                   'random'])
def test_garbage_file_raises_naming_it(fmt, path, content):
    with open(path, 'wb') as f:
        f.write(content)
    with pytest.raises(serializers.SerializationError, match=path) as info:
        fmt.load(path, Tree({'W': numpy.zeros(3)}))
    assert isinstance(info.value, OSError)


def test_missing_file_raises_file_not_found(fmt, tmp_path):
    with pytest.raises(FileNotFoundError):
        fmt.load(str(tmp_path / 'absent'), Tree({'a': 0}))


# --- compression ----------------------------------------------------------

NPZ_COMPRESSIONS = [True, False]
HDF5_COMPRESSIONS = [None, 0, 9, 'gzip', 'lzf']


def test_compression_does_not_change_what_loads(fmt, tmp_path):
    rng = numpy.random.default_rng(1)
    saved = {'W': rng.standard_normal((40, 30)).astype(numpy.float32),
             'zeros': numpy.zeros(1000), 'one': numpy.int8(3),
             'child': {'n': None, 'i': rng.integers(0, 9, 50)}}
    levels = NPZ_COMPRESSIONS if fmt.name == 'npz' else HDF5_COMPRESSIONS
    sizes = []
    for level in levels:
        path = str(tmp_path / f'{level}{fmt.suffix}')
        fmt.save(path, Tree(saved), compression=level)
        target = Tree(blank(saved))
        fmt.load(path, target)
        assert_identical({'W': target.values['W']}, {'W': saved['W']})
        assert_identical({'i': target.values['child']['i']},
                         {'i': saved['child']['i']})
        assert target.values['child']['n'] is None
        sizes.append(os.path.getsize(path))
    assert min(sizes) < max(sizes)  # some setting did compress


# --- property: any tree of arrays -----------------------------------------

keys = st.text(alphabet='abcxyzAB_-:0123456789', min_size=1, max_size=4)
arrays = st.sampled_from(DTYPES).flatmap(lambda dtype: hnp.arrays(
    dtype, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0,
                            max_side=4)))
trees = st.recursive(
    st.dictionaries(keys, arrays, max_size=3),
    lambda children: st.dictionaries(keys, children | arrays, max_size=3),
    max_leaves=10)


@settings(max_examples=60, deadline=None)
@given(tree=trees)
def test_any_tree_of_arrays_round_trips_bit_exact(tree):
    for save_and_load in (testing.save_and_load_npz,
                          testing.save_and_load_hdf5):
        target = Tree(blank(tree))
        save_and_load(Tree(tree), target)
        assert_identical(target.values, tree)
