"""HDF5 specifics: the group layout, subgroups, the optional h5py, a
full disk."""
import errno
import os
import shutil
import signal
import subprocess
import sys

import h5py
import numpy
import pytest
from serializer_fakes import Tree

from kusari.serializers import (
    HDF5Deserializer, HDF5Serializer, SerializationError, load_hdf5,
    save_hdf5)


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / 'm.h5')


def test_layout_is_groups_and_datasets(path):
    save_hdf5(path, Tree({'l1': {'W': numpy.ones((20, 3)), 'n': None},
                          'step': 3, 'name': 'mlp'}))
    with h5py.File(path, 'r') as f:
        assert isinstance(f['l1'], h5py.Group)
        assert f['l1/W'].shape == (20, 3)
        assert f['l1/W'].compression == 'gzip'
        assert f['l1/W'].compression_opts == 4
        assert f['step'].compression is None  # scalars are not compressed
        assert f['l1/n'].shape is None  # h5py.Empty stands for None
        assert f['name'].asstr()[()] == 'mlp'


def test_serializer_and_deserializer_on_a_subgroup(path):
    with h5py.File(path, 'w') as f:
        HDF5Serializer(f.require_group('snap/model')).save(
            Tree({'W': numpy.arange(3.0)}))
    target = Tree({'W': numpy.zeros(3)})
    with h5py.File(path, 'r') as f:
        HDF5Deserializer(f['snap'], path='model').load(target)
    numpy.testing.assert_array_equal(target.values['W'], [0, 1, 2])


def test_missing_key_in_a_subgroup_names_the_group(path):
    save_hdf5(path, Tree({'snap': {'a': 1}}))
    with h5py.File(path, 'r') as f:
        deserializer = HDF5Deserializer(f['snap'])
        with pytest.raises(KeyError,
                           match=r"/b \(key 'b'\) is not in group '/snap'"):
            deserializer('b', 0)
        assert HDF5Deserializer(f['snap'], False)('b', 7) == 7


def test_group_where_a_value_is_expected_raises(path):
    save_hdf5(path, Tree({'child': {'a': 1}}))
    with pytest.raises(ValueError, match="'child'.*is a group"):
        load_hdf5(path, Tree({'child': 0}))


def test_constructors_check_their_arguments(path):
    with pytest.raises(TypeError, match='h5py.Group'):
        HDF5Serializer({})
    with pytest.raises(TypeError, match='h5py.Group'):
        HDF5Deserializer(path)
    with h5py.File(path, 'w') as f:
        with pytest.raises(ValueError, match='compression'):
            HDF5Serializer(f, compression=10)
        with pytest.raises(ValueError, match='compression'):
            HDF5Serializer(f, compression=True)


def test_bad_compression_fails_before_writing(path):
    with pytest.raises(ValueError, match='save_hdf5: compression'):
        save_hdf5(path, Tree({'a': 1}), compression='zip')
    with pytest.raises(TypeError, match='save_hdf5: filename'):
        save_hdf5(3, Tree({'a': 1}))


def test_corrupt_dataset_raises_naming_key_and_file(path):
    values = numpy.arange(5000, dtype=numpy.int32)
    save_hdf5(path, Tree({'W': values}), compression=4)
    with h5py.File(path, 'r') as f:
        offset = f['W'].id.get_chunk_info(0).byte_offset
    with open(path, 'r+b') as f:
        f.seek(offset)
        f.write(b'\xff' * 64)
    with pytest.raises(SerializationError) as info:
        load_hdf5(path, Tree({'W': numpy.zeros(5000, numpy.int32)}))
    assert "'W'" in str(info.value) and path in str(info.value)


_WRITE_WITH_A_FILE_SIZE_LIMIT = """
import os, resource, signal, sys
import numpy
from kusari.serializers import save_hdf5

class Tree:
    def serialize(self, serializer):
        serializer('a', numpy.random.RandomState(0).rand(200000))
        serializer('b', numpy.random.RandomState(1).rand(200000))

path = sys.argv[1]
# Writes past the limit fail with EFBIG, as they fail with ENOSPC on a full
# disk (no root needed); the signal would kill the process instead.
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (100000, 100000))
try:
    save_hdf5(path, Tree(), compression=4)
except OSError as error:
    print('OSError', error.errno)
"""


@pytest.mark.skipif(not hasattr(signal, 'SIGXFSZ'),
                    reason='needs POSIX file size limits')
def test_a_write_failing_on_the_disk_raises_and_leaves_no_temporary_file(
        tmp_path):
    # HDF5 writing to a full disk itself crashed the process (SIGSEGV in
    # h5py's deallocation), leaving its temporary file.
    path = tmp_path / 'm.h5'
    save_hdf5(path, Tree({'a': 1}))
    before = path.read_bytes()
    result = subprocess.run(
        [sys.executable, '-c', _WRITE_WITH_A_FILE_SIZE_LIMIT, str(path)],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ['OSError', str(errno.EFBIG)]
    assert os.listdir(tmp_path) == ['m.h5']
    assert path.read_bytes() == before


def test_too_little_free_space_raises_before_writing(tmp_path, monkeypatch):
    path = tmp_path / 'm.h5'
    save_hdf5(path, Tree({'a': 1}))
    before = path.read_bytes()
    written = []
    real_open = open

    def recording_open(file, mode='r', *args, **kwargs):
        written.append(mode)
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(shutil, 'disk_usage',
                        lambda path: shutil._ntuple_diskusage(10, 10, 10))
    monkeypatch.setattr('builtins.open', recording_open)
    with pytest.raises(OSError, match='save_hdf5: .* bytes to write but '
                                      'only 10 free') as info:
        save_hdf5(path, Tree({'a': numpy.arange(1000)}))
    monkeypatch.undo()
    assert info.value.errno == errno.ENOSPC
    assert 'wb' not in written
    assert os.listdir(tmp_path) == ['m.h5']
    assert path.read_bytes() == before


def test_missing_h5py_raises_runtime_error_naming_the_extra():
    # A fresh interpreter: h5py is made unimportable before anything loads.
    code = (
        'import sys; sys.modules["h5py"] = None\n'
        'from kusari import serializers\n'
        'print(serializers.hdf5._available)\n'
        'class T:\n'
        '    def serialize(self, s): pass\n'
        'try:\n'
        '    serializers.save_hdf5("x.h5", T())\n'
        'except RuntimeError as e:\n'
        '    print(e)\n')
    result = subprocess.run([sys.executable, '-c', code], check=True,
                            capture_output=True, text=True)
    assert result.stdout.startswith('False\n')
    assert 'kusari-serializers[hdf5]' in result.stdout
    assert 'save_hdf5' in result.stdout


def test_available_says_whether_h5py_imports(monkeypatch):
    from kusari.serializers import hdf5
    assert hdf5._available is True
    monkeypatch.setitem(sys.modules, 'h5py', None)
    assert hdf5._available is False
    with pytest.raises(RuntimeError, match='HDF5Deserializer needs h5py'):
        HDF5Deserializer(None)


def test_none_needs_h5py_empty(path, monkeypatch):
    monkeypatch.setattr(h5py.version, 'version_tuple', (2, 6, 0))
    with h5py.File(path, 'w') as f:
        with pytest.raises(RuntimeError, match='h5py 2.7.0 or later'):
            HDF5Serializer(f)('x', None)


def test_deserializer_child_reads_from_its_group(path):
    save_hdf5(path, Tree({'model': {'l1': {'W': numpy.arange(2.0)}}}))
    with h5py.File(path, 'r') as f:
        child = HDF5Deserializer(f)['model']['l1']
        assert child.group.name == '/model/l1'
        numpy.testing.assert_array_equal(child('W', None), [0, 1])
        missing = HDF5Deserializer(f)['model']['l2']
        assert missing.group.name == '/model'
        with pytest.raises(KeyError,
                           match=r"/model/l2/W \(key 'model/l2/W'\)"):
            missing('W', None)
        lenient = HDF5Deserializer(f, strict=False)['model']['l2']
        assert lenient('W', 5) == 5
