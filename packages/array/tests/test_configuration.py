import io
import os
import pickle
import subprocess
import sys
import threading

import numpy
import pytest

from kusari.array import configuration
from kusari.array.configuration import config, global_config, using_config


def test_documented_defaults():
    assert config.train is True and config.enable_backprop is True
    assert config.debug is False and config.type_check is True
    assert config.dtype == numpy.float32
    assert config.use_cudnn == 'auto' and config.use_ideep == 'never'
    assert config.cudnn_deterministic is False and config.autotune is False
    assert config.cuda_seed is None
    assert config.dataset_root.endswith(os.path.join('.chainer', 'dataset'))


def test_local_config_falls_back_to_global():
    global_config.kusari_test_key = 'global'
    try:
        assert config.kusari_test_key == 'global'
        config.kusari_test_key = 'local'
        assert config.kusari_test_key == 'local'
        assert global_config.kusari_test_key == 'global'
        del config.kusari_test_key
        assert config.kusari_test_key == 'global'
    finally:
        del global_config.kusari_test_key


def test_unknown_key_raises_attribute_error():
    with pytest.raises(AttributeError, match='no_such_key'):
        config.no_such_key


def test_local_config_is_thread_local():
    seen = {}

    def worker():
        seen['before'] = config.train
        config.train = 'thread'
        seen['after'] = config.train

    with using_config('train', False):
        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
        assert config.train is False
    assert seen == {'before': True, 'after': 'thread'}
    assert config.train is True


def test_global_changes_are_seen_by_other_threads():
    seen = []
    with using_config('kusari_shared', 5, global_config):
        thread = threading.Thread(
            target=lambda: seen.append(config.kusari_shared))
        thread.start()
        thread.join()
    assert seen == [5]
    assert not hasattr(global_config, 'kusari_shared')


def test_using_config_restores():
    with using_config('train', False):
        assert config.train is False
        with using_config('train', 'inner'):
            assert config.train == 'inner'
        assert config.train is False
    assert config.train is True
    # No local value is left behind: the global default shows through.
    assert 'train' not in config._local.__dict__


def test_using_config_restores_on_exception():
    config.debug = True
    try:
        with pytest.raises(ZeroDivisionError):
            with using_config('debug', False):
                1 / 0
        assert config.debug is True
    finally:
        del config.debug
    with pytest.raises(KeyError):
        with using_config('kusari_new_key', 1):
            raise KeyError
    assert not hasattr(config, 'kusari_new_key')


def test_show_lists_keys_sorted():
    out = io.StringIO()
    with using_config('kusari_aaa', 1):
        config.show(out)
    lines = out.getvalue().splitlines()
    keys = [line.split()[0] for line in lines]
    assert keys == sorted(keys) and 'kusari_aaa' in keys and 'train' in keys
    assert any(line.split() == ['kusari_aaa', '1'] for line in lines)
    out = io.StringIO()
    global_config.show(out)
    assert 'kusari_aaa' not in out.getvalue()
    assert 'dtype' in out.getvalue()


def test_show_aligns_values_as_chainer():
    # One column a space right of the longest key; values shown with str
    # (Chainer 7.8.1 prints 'float32' and 'auto', not their reprs).
    out = io.StringIO()
    with using_config('kusari_a_much_longer_key_than_any_other', 'x'):
        config.show(out)
    lines = out.getvalue().splitlines()
    width = len('kusari_a_much_longer_key_than_any_other') + 1
    assert all(line[width - 1] == ' ' and line[width] != ' '
               for line in lines)
    assert 'kusari_a_much_longer_key_than_any_other x' in lines
    assert 'dtype'.ljust(width) + 'float32' in lines


def test_get_dtype():
    assert configuration.get_dtype() == numpy.float32
    assert configuration.get_dtype('float64') == numpy.float64
    assert configuration.get_dtype(numpy.float16) == numpy.float16
    with using_config('dtype', numpy.dtype(numpy.float64)):
        assert configuration.get_dtype() == numpy.float64
    with pytest.raises(TypeError):
        configuration.get_dtype('no_such_dtype')


def test_get_dtype_mixed16():
    mixed16 = configuration.mixed16
    assert configuration.get_dtype(mixed16) == numpy.float16
    assert configuration.get_dtype(mixed16, map_mixed16=numpy.float32) == \
        numpy.float32
    with using_config('dtype', mixed16):
        assert configuration.get_dtype() == numpy.float16
        assert configuration.get_dtype(
            map_mixed16=numpy.float32) == numpy.float32
        assert configuration.get_dtype(numpy.float64) == numpy.float64
    assert numpy.dtype(mixed16) == numpy.float16
    assert repr(mixed16) == "dtype('mixed16')"
    assert pickle.loads(pickle.dumps(mixed16)) is mixed16


def _config_in_subprocess(env_vars):
    env = {k: v for k, v in os.environ.items() if not k.startswith('CHAINER_')}
    env.update(env_vars)
    code = ('from kusari.array.configuration import config\n'
            'print(config.debug, config.dtype, config.type_check, '
            'config.use_cudnn, config.cuda_seed, config.dataset_root)')
    return subprocess.run([sys.executable, '-c', code], env=env,
                          capture_output=True, text=True, timeout=60)


def test_environment_variables_are_read():
    result = _config_in_subprocess({
        'CHAINER_DEBUG': '1', 'CHAINER_DTYPE': 'float16',
        'CHAINER_TYPE_CHECK': '0', 'CHAINER_USE_CUDNN': 'never',
        'CHAINER_SEED': '42', 'CHAINER_DATASET_ROOT': '/tmp/kusari-data'})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        'True', 'float16', 'False', 'never', '42', '/tmp/kusari-data']


def test_environment_mixed16():
    result = _config_in_subprocess({'CHAINER_DTYPE': 'mixed16'})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[1] == "dtype('mixed16')"


def test_environment_defaults():
    result = _config_in_subprocess({})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[:5] == [
        'False', 'float32', 'True', 'auto', 'None']


@pytest.mark.parametrize('name, value, expected', [
    ('CHAINER_DEBUG', 'yes', 'CHAINER_DEBUG must be 0 or 1'),
    ('CHAINER_TYPE_CHECK', 'true', 'CHAINER_TYPE_CHECK must be 0 or 1'),
    ('CHAINER_DTYPE', 'float8', 'CHAINER_DTYPE must be one of'),
    ('CHAINER_USE_CUDNN', 'sometimes', "CHAINER_USE_CUDNN must be 'always'"),
    ('CHAINER_SEED', 'abc', 'CHAINER_SEED must be a decimal integer'),
])
def test_invalid_environment_values_fail_clearly(name, value, expected):
    result = _config_in_subprocess({name: value})
    assert result.returncode != 0
    assert 'ValueError' in result.stderr
    assert expected in result.stderr and repr(value) in result.stderr


def test_config_local_holds_only_this_threads_values():
    seen = {}

    def other_thread():
        seen['other'] = dict(configuration.config_local.__dict__)

    with using_config('some_local_key', 3):
        assert configuration.config_local.__dict__['some_local_key'] == 3
        thread = threading.Thread(target=other_thread)
        thread.start()
        thread.join()
    assert 'some_local_key' not in seen['other']
    assert 'some_local_key' not in configuration.config_local.__dict__
