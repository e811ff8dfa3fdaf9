"""What the concrete datasets (MNIST, CIFAR, SVHN, PTB) share.

Where their files come from: each module has a ``BASE_URL`` constant; if
the environment variable ``KUSARI_DATASET_MIRROR`` is set, every file is
fetched from ``<mirror>/<dataset>/<file name>`` instead, e.g.
``http://host/datasets/mnist/train-images-idx3-ubyte.gz``. Both are read
when a dataset is requested, not at import. Each module's ``CHECKSUMS``
holds the published digest of each file (SHA-256, or MD5 where only that
is published), which every download, from either place, must match; a
mirror of other files (a smaller corpus in the same format, say) is read
with ``KUSARI_DATASET_VERIFY=0``, which skips the check and logs a warning.

How a download is parsed: a file that turns out truncated or in the wrong
format is removed from the download cache before the error is raised, so
the next call downloads it again instead of failing forever.

How the parsed arrays are kept: as an ``.npz`` file in the dataset's
directory under the dataset root, made once through
:func:`~kusari.datasets.download.cache_or_load_file`.
"""
import logging
import os
import pickle
import tarfile
import zlib

import numpy

from kusari.array import configuration
from kusari.datasets import download
from kusari.datasets import tuple_dataset

MIRROR_ENV = 'KUSARI_DATASET_MIRROR'
VERIFY_ENV = 'KUSARI_DATASET_VERIFY'

# What reading a damaged or foreign file raises (gzip.BadGzipFile is an
# OSError, UnicodeDecodeError a ValueError).
_FORMAT_ERRORS = (OSError, EOFError, ValueError, KeyError, IndexError,
                  zlib.error, tarfile.TarError, pickle.UnpicklingError)


def source_url(dataset, base_url, filename):
    """The URL of ``filename`` of ``dataset``, honouring the mirror."""
    mirror = os.environ.get(MIRROR_ENV)
    if mirror:
        return f'{mirror.rstrip("/")}/{dataset}/{filename}'
    return base_url + filename


def fetch(dataset, base_url, filename, checksums, parse):
    """Download ``filename`` of ``dataset`` (cached, checked against
    ``checksums[filename]``, unless that is None or checks are off) and
    return ``parse(path)``.

    Raises:
        OSError: The download failed; the message says how to get the file
            onto a machine that cannot reach the server.
        ValueError: The file does not match its checksum, or ``parse``
            found it damaged; the message names the URL and the file,
            and the file is not in the cache.
    """
    url = source_url(dataset, base_url, filename)
    checksum = checksums[filename]
    if os.environ.get(VERIFY_ENV) == '0':
        logging.getLogger('kusari.datasets').warning(
            '%s=0: %s is used without checking its checksum', VERIFY_ENV,
            url)
        checksum = None
    try:
        path = download.cached_download(url, checksum)
    except OSError as e:
        raise OSError(
            f'{e}. Without access to that server, set {MIRROR_ENV} to a '
            f'server holding {dataset}/{filename} (and the other files of '
            f'the dataset), or copy the dataset root '
            f'({download.get_dataset_root()}, set by CHAINER_DATASET_ROOT) '
            'from a machine that has downloaded it.') from e
    try:
        return parse(path)
    except _FORMAT_ERRORS as e:
        try:
            os.remove(path)
        except FileNotFoundError:
            pass
        raise ValueError(
            f'the file downloaded from {url} ({path}) is truncated or not '
            f'in the expected format: {e!r}. It has been removed from the '
            'download cache; the next call downloads it again.') from e


def cached_arrays(dataset_directory, filename, creator):
    """The arrays of ``<dataset directory>/<filename>``, an npz file.

    On the first call ``creator()`` returns a dict of arrays, which is
    saved compressed; later calls load it.
    """
    def create(path):
        arrays = creator()
        with open(path, 'wb') as f:
            numpy.savez_compressed(f, **arrays)
        return arrays

    def load(path):
        with numpy.load(path) as npz:
            return dict(npz)

    path = os.path.join(
        download.get_dataset_directory(dataset_directory), filename)
    return download.cache_or_load_file(path, create, load)


def check_option(function, name, value, allowed):
    """Raise ValueError unless ``value`` is one of ``allowed``."""
    if value not in allowed:
        raise ValueError(
            f'{function}: {name} must be one of {", ".join(map(str, allowed))}'
            f', got {value!r}')


def images_and_labels(images, labels, withlabel, scale, dtype, label_dtype):
    """Scale uint8 ``images`` to ``[0, scale]`` as ``dtype``.

    Returns the images alone, or with ``withlabel`` a
    :class:`~kusari.datasets.TupleDataset` of images and labels.
    """
    images = images.astype(configuration.get_dtype(dtype))
    images *= scale / 255.
    if not withlabel:
        return images
    return tuple_dataset.TupleDataset(images, labels.astype(label_dtype))
