"""NPZ specifics: the flat dict, file objects, ignore_names, pickles."""
import io
import pickle
import zipfile

import numpy
import pytest
from serializer_fakes import FailingTree, Tree, assert_identical, blank

from kusari.serializers import (
    DictionarySerializer, NpzDeserializer, SerializationError, load_npz,
    save_npz)

# The member Chainer 7.8.1 (with NumPy 1.26) writes for a None value: a 0-d
# object array, pickled with protocol 3 under NumPy 1's module names.
CHAINER_NONE_NPY = (
    b"\x93NUMPY\x01\x00v\x00{'descr': '|O', 'fortran_order': False, "
    b"'shape': (), }" + b' ' * 63 + b'\n'
    b'\x80\x03cnumpy.core.multiarray\n_reconstruct\nq\x00cnumpy\nndarray'
    b'\nq\x01K\x00\x85q\x02C\x01bq\x03\x87q\x04Rq\x05(K\x01)cnumpy\ndtype'
    b'\nq\x06X\x02\x00\x00\x00O8q\x07\x89\x88\x87q\x08Rq\t(K\x03X\x01\x00'
    b'\x00\x00|q\nNNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK?tq\x0bb\x89]q\x0c'
    b'Natq\rb.')


def npz_bytes(members):
    """An NPZ archive holding the given raw members (name -> bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, 'w') as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def npy_bytes(array, allow_pickle=False):
    buffer = io.BytesIO()
    numpy.lib.format.write_array(buffer, array, allow_pickle=allow_pickle)
    return buffer.getvalue()


def test_dictionary_serializer_flattens_with_slashes():
    W = numpy.ones((2, 2), numpy.float32)
    serializer = DictionarySerializer()
    serializer.save(Tree({'l1': {'W': W, 'n': None}, 'step': 3}))
    target = serializer.target
    assert sorted(target) == ['l1/W', 'l1/n', 'step']
    assert target['l1/W'] is W  # stored, not copied
    assert target['step'].shape == () and target['step'] == 3
    assert target['l1/n'].dtype == object and target['l1/n'][()] is None


def test_dictionary_serializer_returns_the_value_and_fills_target():
    target = {'kept': 1}
    serializer = DictionarySerializer(target, path='root')
    value = [1.0, 2.0]
    assert serializer['/child/']('/x', value) is value
    assert sorted(target) == ['kept', 'root/child/x']


def test_dictionary_serializer_rejects_a_target_that_is_not_a_dict():
    with pytest.raises(TypeError, match='target must be a dict'):
        DictionarySerializer([])


def test_npz_deserializer_reads_a_dictionary_serializer_target():
    saved = {'a': numpy.arange(3), 'c': {'n': None, 's': 2.5}}
    serializer = DictionarySerializer()
    serializer.save(Tree(saved))
    target = Tree({'a': numpy.zeros(3, numpy.int64),
                   'c': {'n': numpy.ones(1), 's': 0.0}})
    NpzDeserializer(serializer.target).load(target)
    numpy.testing.assert_array_equal(target.values['a'], [0, 1, 2])
    assert target.values['c'] == {'n': None, 's': 2.5}


def test_file_object_round_trip():
    saved = {'W': numpy.arange(6.0).reshape(2, 3), 'c': {'x': 4}}
    buffer = io.BytesIO()
    save_npz(buffer, Tree(saved))
    buffer.seek(0)
    target = Tree(blank(saved))
    load_npz(buffer, target)
    assert_identical({'W': target.values['W']}, {'W': saved['W']})
    assert target.values['c']['x'] == 4
    assert not buffer.closed


def test_failing_serialize_writes_nothing_to_a_file_object():
    buffer = io.BytesIO(b'previous')
    with pytest.raises(RuntimeError):
        save_npz(buffer, FailingTree({'W': numpy.zeros(2)}))
    assert buffer.getvalue() == b'previous'


def test_file_is_a_zip_of_npy_members_numpy_can_read(tmp_path):
    path = tmp_path / 'm.npz'
    save_npz(path, Tree({'l': {'W': numpy.eye(2)}, 'i': 5}),
             compression=False)
    with numpy.load(path) as archive:
        assert sorted(archive.files) == ['i', 'l/W']
        numpy.testing.assert_array_equal(archive['l/W'], numpy.eye(2))


@pytest.mark.parametrize('key', ['file', 'allow_pickle', 'compression'])
def test_keys_named_like_savez_arguments_are_saved(key):
    buffer = io.BytesIO()
    save_npz(buffer, Tree({key: 1.5}))
    buffer.seek(0)
    target = Tree({key: 0.0})
    load_npz(buffer, target)
    assert target.values[key] == 1.5


@pytest.mark.parametrize('ignore_names', [
    'c/b', ['c/b'], ('x', 'c/b'), lambda name: name.endswith('/b'),
    ['nothing', lambda name: name == 'c/b']],
    ids=['str', 'list', 'tuple', 'callable', 'list-with-callable'])
def test_ignore_names_leaves_values_alone(ignore_names):
    buffer = io.BytesIO()
    save_npz(buffer, Tree({'a': 1, 'c': {'b': 2}}))
    buffer.seek(0)
    target = Tree({'a': 0, 'c': {'b': 0}})
    load_npz(buffer, target, ignore_names=ignore_names)
    assert target.values == {'a': 1, 'c': {'b': 0}}


def test_ignore_names_skips_keys_missing_from_the_file():
    buffer = io.BytesIO()
    save_npz(buffer, Tree({'a': 1}))
    buffer.seek(0)
    target = Tree({'a': 0, 'new': 9})
    load_npz(buffer, target, ignore_names='new')
    assert target.values == {'a': 1, 'new': 9}


def test_ignore_names_compares_the_full_key_under_path():
    buffer = io.BytesIO()
    save_npz(buffer, Tree({'m': {'a': 1, 'b': 2}}))
    buffer.seek(0)
    target = Tree({'a': 0, 'b': 0})
    load_npz(buffer, target, path='m', ignore_names=['m/b'])
    assert target.values == {'a': 1, 'b': 0}


def test_bad_ignore_names_fail_before_reading(tmp_path):
    with pytest.raises(TypeError, match='ignore_names'):
        load_npz(tmp_path / 'absent.npz', Tree({}), ignore_names=[3])


def test_chainer_none_is_loaded_without_pickle():
    content = npz_bytes({'n.npy': CHAINER_NONE_NPY,
                         'a.npy': npy_bytes(numpy.arange(2))})
    target = Tree({'n': numpy.ones(2), 'a': numpy.zeros(2, numpy.int64)})
    load_npz(io.BytesIO(content), target)
    assert target.values['n'] is None
    numpy.testing.assert_array_equal(target.values['a'], [0, 1])


def test_none_is_written_as_chainer_does():
    buffer = io.BytesIO()
    save_npz(buffer, Tree({'n': None}))
    buffer.seek(0)
    with numpy.load(buffer, allow_pickle=True) as archive:
        stored = archive['n']
    assert stored.dtype == object and stored.shape == ()
    assert stored[()] is None


calls = []


class Payload:
    """Unpickling this would call ``calls.append``: it must never run."""

    def __reduce__(self):
        return calls.append, ('unpickled',)


@pytest.mark.parametrize('obj', [Payload(), {'a': 1}, [None], 'text'],
                         ids=['code', 'dict', 'list', 'str'])
def test_other_pickled_objects_are_refused_and_not_run(obj):
    array = numpy.empty((), dtype=object)
    array[()] = obj
    content = npz_bytes({'x.npy': npy_bytes(array, allow_pickle=True)})
    with pytest.raises(SerializationError, match="'x'.*pickled object"):
        load_npz(io.BytesIO(content), Tree({'x': None}))
    assert calls == []


def test_pickle_protocol_payload_without_numpy_is_refused():
    header = npy_bytes(numpy.asarray(None), allow_pickle=True)
    header = header[:header.index(b'\n') + 1]
    content = npz_bytes(
        {'x.npy': header + pickle.dumps(Payload(), protocol=2)})
    with pytest.raises(SerializationError, match='pickled object'):
        load_npz(io.BytesIO(content), Tree({'x': None}))
    assert calls == []


def test_corrupt_member_raises_naming_key_and_file(tmp_path):
    path = tmp_path / 'm.npz'
    values = numpy.arange(1000, dtype=numpy.int32)
    save_npz(path, Tree({'W': values}), compression=False)
    content = bytearray(path.read_bytes())
    start = bytes(content).index(values[100:104].tobytes())
    content[start:start + 4] = b'\xff' * 4
    path.write_bytes(bytes(content))
    with pytest.raises(SerializationError) as info:
        load_npz(path, Tree({'W': numpy.zeros(1000, numpy.int32)}))
    assert "'W'" in str(info.value) and str(path) in str(info.value)


def test_single_npy_file_is_not_an_archive(tmp_path):
    path = tmp_path / 'a.npy'
    numpy.save(path, numpy.arange(3))
    with pytest.raises(SerializationError, match='single .npy'):
        load_npz(path, Tree({'a': numpy.zeros(3)}))


def test_garbage_file_object_raises():
    with pytest.raises(SerializationError, match='not a readable NPZ'):
        load_npz(io.BytesIO(b'garbage' * 50), Tree({'a': 0}))


@pytest.mark.parametrize('damage, message', [
    (lambda content: content[:len(content) // 2],
     'it begins as a ZIP archive but is cut short or damaged'),
    (lambda content: b'garbage' * 50,
     "it is not a ZIP archive, as an NPZ file is (it begins with b'garb')"),
    (lambda content: b'', 'the file is empty'),
])
def test_an_unreadable_file_says_what_is_wrong(tmp_path, damage, message):
    path = tmp_path / 'm.npz'
    save_npz(path, Tree({'a': numpy.arange(100)}))
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(SerializationError) as info:
        load_npz(path, Tree({'a': numpy.zeros(100, numpy.int64)}))
    assert f"'{path}' is not a readable NPZ archive: {message}" in str(
        info.value)


def test_save_rejects_a_bad_file_argument():
    with pytest.raises(TypeError, match='save_npz: file must be'):
        save_npz(3, Tree({'a': 1}))


def test_failure_while_writing_keeps_the_previous_file(tmp_path,
                                                       monkeypatch):
    path = tmp_path / 'm.npz'
    save_npz(path, Tree({'a': numpy.arange(3), 'b': 1}))
    before = path.read_bytes()
    write_array = numpy.lib.format.write_array
    written = []

    def write_one_then_fail(*args, **kwargs):
        if written:
            raise OSError('disk full')
        written.append(write_array(*args, **kwargs))

    monkeypatch.setattr(numpy.lib.format, 'write_array',
                        write_one_then_fail)
    with pytest.raises(OSError, match='disk full'):
        save_npz(path, Tree({'a': numpy.zeros(3), 'b': 2}))
    assert written and path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ['m.npz']


def test_serialize_flattens_as_save_npz_writes(tmp_path):
    from kusari.serializers import npz
    tree = Tree({'l1': {'W': numpy.arange(3.0)}, 'step': 2})
    flat = npz.serialize(tree)
    assert sorted(flat) == ['l1/W', 'step']
    numpy.testing.assert_array_equal(flat['l1/W'], [0, 1, 2])
    save_npz(str(tmp_path / 'm.npz'), tree)
    with numpy.load(str(tmp_path / 'm.npz')) as saved:
        assert sorted(saved.files) == sorted(flat)
    with pytest.raises(TypeError, match='serialize: expected an object'):
        npz.serialize(3)
