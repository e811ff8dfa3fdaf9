"""Where datasets are cached, and how they get there.

Everything lives under the dataset root: ``config.dataset_root``, read from
the environment variable ``CHAINER_DATASET_ROOT`` (default
``~/.chainer/dataset``) and changed with :func:`set_dataset_root`.

Files appear in the cache atomically: they are written under a temporary
name in the same directory and renamed into place when complete, so an
interrupted download or conversion never leaves a file that a later call
would take as complete. Processes that want the same file at once
serialise on a file lock beside it (removed when the file is made); the
first makes it, the others load it.

A download given a published checksum enters the cache only if it matches,
and a cached file is checked again before it is used. Downloads are logged
(``logging`` logger ``kusari.datasets``); on a terminal, stderr shows their
progress.
"""
import contextlib
import hashlib
import http.client
import logging
import os
import shutil
import sys
import tempfile
import urllib.request

import filelock

from kusari.array import configuration

#: Seconds a download may wait for the server on any one read.
DOWNLOAD_TIMEOUT = 60

_CHUNK = 1 << 20
_logger = logging.getLogger('kusari.datasets')


def get_dataset_root():
    """The root directory of downloaded and cached datasets.

    This is ``config.dataset_root``, so ``using_config('dataset_root',
    path)`` changes it for one thread.
    """
    return configuration.config.dataset_root


def set_dataset_root(path):
    """Set the root directory of downloaded and cached datasets.

    It takes precedence over ``CHAINER_DATASET_ROOT``.

    Args:
        path (str or os.PathLike): The new root directory.
    """
    try:
        path = os.fspath(path)
    except TypeError:
        raise TypeError(
            'set_dataset_root: path must be a str or os.PathLike, got '
            f'{type(path).__name__}') from None
    configuration.global_config.dataset_root = path


def get_dataset_directory(dataset_name, create_directory=True):
    """The directory of ``dataset_name`` under the dataset root.

    Args:
        dataset_name (str): A relative path, e.g. ``'pfnet/chainer/mnist'``.
        create_directory (bool): Create the directory if it is missing.

    Returns:
        str: The path of the directory.
    """
    path = os.path.join(get_dataset_root(), dataset_name)
    if create_directory:
        os.makedirs(path, exist_ok=True)
    return path


@contextlib.contextmanager
def _locked(path):
    """Hold the lock file beside ``path``; remove it afterwards, also
    when the block fails.

    Removing it can let a process that waited on the old lock file and one
    that made a new one both enter; every caller re-checks for the file it
    wanted, and files appear by atomic rename, so the worst outcome is work
    done twice.
    """
    lock_path = path + '.lock'
    try:
        with filelock.FileLock(lock_path):
            yield
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.remove(lock_path)


@contextlib.contextmanager
def _staging_directory(directory):
    """A fresh temporary directory inside ``directory``, removed on exit."""
    staging = tempfile.mkdtemp(prefix='.partial-', dir=directory)
    try:
        yield staging
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def cached_download(url, checksum=None):
    """Download ``url`` into the cache unless it is there; return its path.

    The file is kept under ``<dataset root>/_dl_cache/`` with the MD5 of
    the URL as its name. A download that fails or is cut short (fewer
    bytes than the server announced) raises :class:`OSError` naming the
    URL and leaves nothing in the cache.

    Args:
        url (str): The file to download.
        checksum (str): The file's published digest, ``'sha256:<hex>'``
            (or another :mod:`hashlib` algorithm before the colon). A
            download that does not match raises :class:`ValueError` and
            leaves nothing in the cache; a cached file that no longer
            matches is downloaded again.
    """
    cache_root = os.path.join(get_dataset_root(), '_dl_cache')
    os.makedirs(cache_root, exist_ok=True)
    cache_path = os.path.join(
        cache_root, hashlib.md5(url.encode('utf-8')).hexdigest())
    if _is_cached(cache_path, checksum):
        return cache_path
    with _locked(cache_path):
        if not _is_cached(cache_path, checksum):
            with _staging_directory(cache_root) as staging:
                temp_path = os.path.join(staging, 'download')
                _download(url, temp_path)
                _verify(url, temp_path, checksum)
                os.replace(temp_path, cache_path)
    return cache_path


def _is_cached(path, checksum):
    if not os.path.exists(path):
        return False
    if checksum is None or _mismatch(path, checksum) is None:
        return True
    _logger.warning('the cached file %s does not match its published '
                    'checksum; downloading it again', path)
    return False


def _mismatch(path, checksum):
    """None if the file at ``path`` matches ``checksum``
    (``'algorithm:hex'``), else what is wrong, as a sentence fragment."""
    algorithm, _, expected = checksum.partition(':')
    digest = hashlib.new(algorithm)
    with open(path, 'rb') as f:
        while chunk := f.read(_CHUNK):
            digest.update(chunk)
    found = digest.hexdigest()
    if found == expected.lower():
        return None
    return (f'has {algorithm} {found}, but its published checksum is '
            f'{expected.lower()}')


def _verify(url, path, checksum):
    mismatch = None if checksum is None else _mismatch(path, checksum)
    if mismatch is not None:
        raise ValueError(
            f'cached_download: the file downloaded from {url} {mismatch}: '
            'the download is damaged, or the server sends another file. '
            'Nothing was cached.')


def _download(url, path):
    _logger.info('Downloading from %s', url)
    try:
        with urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT) as reply, \
                open(path, 'wb') as out:
            announced = reply.headers.get('Content-Length')
            _copy(reply, out, announced)
            received = out.tell()
    except (OSError, http.client.HTTPException) as e:
        raise OSError(
            f'cached_download: downloading {url} failed: {e!r}') from e
    if announced is not None and int(announced) != received:
        raise OSError(
            f'cached_download: downloading {url} stopped after {received} '
            f'of {announced} bytes')


def _copy(reply, out, announced):
    """Copy ``reply`` into ``out``, showing the progress on a terminal's
    stderr (one line, rewritten in place)."""
    shown = sys.stderr.isatty()
    total = f' of {int(announced) / 1e6:.1f} MB' if announced else ''
    while chunk := reply.read(_CHUNK):
        out.write(chunk)
        if shown:
            percent = (f' ({100 * out.tell() // int(announced)}%)'
                       if announced else '')
            sys.stderr.write(f'\r  {out.tell() / 1e6:.1f} MB{total}{percent}')
            sys.stderr.flush()
    if shown:
        sys.stderr.write('\n')


def cache_or_load_file(path, creator, loader):
    """Load the file at ``path``, making it first if it does not exist.

    Args:
        path (str): The cached file.
        creator (callable): ``creator(temp_path)`` writes the file at
            ``temp_path`` (a fresh path with the same base name as
            ``path``, in the same directory) and returns its content;
            the file is then renamed to ``path``.
        loader (callable): ``loader(path)`` reads the file and returns its
            content.

    Returns:
        What ``loader`` returns, or what ``creator`` returns if the file
        was made by this call.
    """
    if os.path.exists(path):
        return loader(path)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    with _locked(path):
        if os.path.exists(path):
            return loader(path)
        with _staging_directory(directory) as staging:
            temp_path = os.path.join(staging, os.path.basename(path))
            content = creator(temp_path)
            if not os.path.exists(temp_path):
                raise RuntimeError(
                    f'cache_or_load_file: the creator {creator!r} returned '
                    f'without writing the file it was given ({temp_path})')
            os.replace(temp_path, path)
    return content
