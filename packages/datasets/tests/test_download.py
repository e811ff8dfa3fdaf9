import hashlib
import io
import logging
import os
import threading

import numpy
import pytest

from kusari.array import configuration
from kusari.datasets import download


@pytest.fixture
def root(dataset_root):
    return dataset_root


@pytest.fixture
def server(file_server):
    return file_server


def _cache_entries(root):
    cache = root / '_dl_cache'
    return sorted(p.name for p in cache.iterdir())


def test_dataset_root_follows_config_and_setter(tmp_path, monkeypatch):
    monkeypatch.setattr(configuration.global_config, 'dataset_root', 'a')
    assert download.get_dataset_root() == 'a'
    download.set_dataset_root(tmp_path)
    assert download.get_dataset_root() == str(tmp_path)
    with configuration.using_config('dataset_root', 'b'):
        assert download.get_dataset_root() == 'b'


def test_set_dataset_root_rejects_non_paths():
    with pytest.raises(TypeError, match='set_dataset_root: path'):
        download.set_dataset_root(3)


def test_default_root_comes_from_environment():
    expected = os.environ.get(
        'CHAINER_DATASET_ROOT',
        os.path.join(os.path.expanduser('~'), '.chainer', 'dataset'))
    configuration._initialize(fresh := configuration.GlobalConfig())
    assert fresh.dataset_root == expected


def test_get_dataset_directory(root):
    path = download.get_dataset_directory('pfnet/x', create_directory=False)
    assert path == os.path.join(str(root), 'pfnet/x')
    assert not os.path.exists(path)
    assert download.get_dataset_directory('pfnet/x') == path
    assert os.path.isdir(path)


def test_cached_download_fetches_once(root, server):
    server.files['a.bin'] = b'payload'
    path = download.cached_download(server.url('a.bin'))
    assert open(path, 'rb').read() == b'payload'
    assert download.cached_download(server.url('a.bin')) == path
    assert server.requests == ['a.bin']
    assert os.path.dirname(path) == str(root / '_dl_cache')


def test_cached_download_missing_file_names_url(root, server):
    with pytest.raises(OSError, match='missing.bin'):
        download.cached_download(server.url('missing.bin'))
    assert _cache_entries(root) == []


def test_cut_short_download_leaves_nothing(root, server):
    server.files['big.bin'] = bytes(range(256)) * 40
    server.cut_short.add('big.bin')
    with pytest.raises(OSError, match='big.bin'):
        download.cached_download(server.url('big.bin'))
    assert _cache_entries(root) == []
    server.cut_short.clear()
    path = download.cached_download(server.url('big.bin'))
    assert os.path.getsize(path) == 256 * 40


def test_interrupted_download_leaves_nothing(root, server, monkeypatch):
    server.files['a.bin'] = b'payload'

    def interrupted(reply, out, announced):
        out.write(b'pay')
        raise KeyboardInterrupt

    monkeypatch.setattr(download, '_copy', interrupted)
    with pytest.raises(KeyboardInterrupt):
        download.cached_download(server.url('a.bin'))
    assert _cache_entries(root) == []


def test_leftover_partial_file_is_not_taken(root, server):
    # What a killed process leaves behind.
    partial = root / '_dl_cache' / '.partial-dead'
    partial.mkdir(parents=True)
    (partial / 'download').write_bytes(b'pay')
    server.files['a.bin'] = b'payload'
    path = download.cached_download(server.url('a.bin'))
    assert open(path, 'rb').read() == b'payload'


def test_concurrent_downloads_serialise(root, server):
    server.files['a.bin'] = b'payload'
    server.delay = 0.2
    paths = []
    threads = [threading.Thread(
        target=lambda: paths.append(
            download.cached_download(server.url('a.bin'))))
        for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert server.requests == ['a.bin']
    assert len(set(paths)) == 1 and len(paths) == 3
    assert _cache_entries(root) == [os.path.basename(paths[0])]


def test_cache_or_load_file_creates_once(tmp_path):
    path = str(tmp_path / 'sub' / 'data.npz')
    calls = []

    def creator(temp_path):
        calls.append(temp_path)
        assert temp_path != path
        assert os.path.basename(temp_path) == 'data.npz'
        numpy.savez(temp_path, x=numpy.arange(3))
        return 'created'

    def loader(p):
        with numpy.load(p) as f:
            return f['x'].tolist()

    assert download.cache_or_load_file(path, creator, loader) == 'created'
    assert download.cache_or_load_file(path, creator, loader) == [0, 1, 2]
    assert len(calls) == 1
    assert os.listdir(tmp_path / 'sub') == ['data.npz']   # no lock left


def test_cache_or_load_file_failing_creator_leaves_nothing(tmp_path):
    path = str(tmp_path / 'data.txt')

    def creator(temp_path):
        with open(temp_path, 'w') as f:
            f.write('half')
        raise RuntimeError('boom')

    with pytest.raises(RuntimeError, match='boom'):
        download.cache_or_load_file(path, creator, open)
    assert os.listdir(tmp_path) == []


def test_cache_or_load_file_creator_must_write(tmp_path):
    with pytest.raises(RuntimeError, match='without writing'):
        download.cache_or_load_file(
            str(tmp_path / 'x'), lambda p: None, open)
    assert not os.path.exists(tmp_path / 'x')


def test_cache_or_load_file_concurrent_creation_serialises(tmp_path):
    path = str(tmp_path / 'x.txt')
    calls = []
    barrier = threading.Barrier(3)

    def creator(temp_path):
        calls.append(1)
        with open(temp_path, 'w') as f:
            f.write('made')
        return 'made'

    def load(p):
        with open(p) as f:
            return f.read()

    results = []

    def run():
        barrier.wait()
        results.append(download.cache_or_load_file(path, creator, load))

    threads = [threading.Thread(target=run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == ['made'] * 3
    assert len(calls) == 1
    assert os.listdir(tmp_path) == ['x.txt']


def _sha256(data):
    return 'sha256:' + hashlib.sha256(data).hexdigest()


def test_checksum_match_is_cached(root, server):
    server.files['a.bin'] = b'payload'
    path = download.cached_download(server.url('a.bin'),
                                    _sha256(b'payload'))
    assert open(path, 'rb').read() == b'payload'


def test_checksum_mismatch_is_reported_and_not_cached(root, server):
    server.files['a.bin'] = b'tampered'
    with pytest.raises(ValueError, match=r'a\.bin has sha256 [0-9a-f]{64}, '
                       'but its published checksum is [0-9a-f]{64}'):
        download.cached_download(server.url('a.bin'), _sha256(b'payload'))
    assert _cache_entries(root) == []


def test_other_algorithms_are_accepted(root, server):
    server.files['a.bin'] = b'payload'
    server.files['b.bin'] = b'other'
    md5 = 'md5:' + hashlib.md5(b'payload').hexdigest()
    download.cached_download(server.url('a.bin'), md5)
    with pytest.raises(ValueError, match='has md5'):
        download.cached_download(server.url('b.bin'), md5)


def test_cached_file_is_checked_again(root, server, caplog):
    server.files['a.bin'] = b'payload'
    path = download.cached_download(server.url('a.bin'))
    with open(path, 'wb') as f:
        f.write(b'damaged on disk')
    with caplog.at_level(logging.WARNING, 'kusari.datasets'):
        again = download.cached_download(server.url('a.bin'),
                                         _sha256(b'payload'))
    assert again == path and open(path, 'rb').read() == b'payload'
    assert 'does not match its published checksum' in caplog.text
    assert server.requests == ['a.bin', 'a.bin']


def test_downloads_are_logged_and_progress_only_on_a_terminal(
        root, server, monkeypatch, caplog):
    server.files['a.bin'] = b'x' * 3000
    server.files['b.bin'] = b'x' * 3000
    stderr = io.StringIO()
    monkeypatch.setattr(download.sys, 'stderr', stderr)
    with caplog.at_level(logging.INFO, 'kusari.datasets'):
        download.cached_download(server.url('a.bin'))
    assert f'Downloading from {server.url("a.bin")}' in caplog.text
    assert stderr.getvalue() == ''
    monkeypatch.setattr(stderr, 'isatty', lambda: True, raising=False)
    download.cached_download(server.url('b.bin'))
    assert stderr.getvalue() == '\r  0.0 MB of 0.0 MB (100%)\n'
