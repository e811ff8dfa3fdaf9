"""What the concrete datasets (MNIST, CIFAR, SVHN, PTB) share.

Where their files come from: each module has a ``BASE_URL`` constant; if
the environment variable ``KUSARI_DATASET_MIRROR`` is set, every file is
fetched from ``<mirror>/<dataset>/<file name>`` instead, e.g.
``http://host/datasets/mnist/train-images-idx3-ubyte.gz``. Both are read
when a dataset is requested, not at import.

How a download is parsed: a file that turns out truncated or in the wrong
format is removed from the download cache before the error is raised, so
the next call downloads it again instead of failing forever.

How the parsed arrays are kept: as an ``.npz`` file in the dataset's
directory under the dataset root, made once through
:func:`~kusari.datasets.download.cache_or_load_file`.
"""
import os
import pickle
import tarfile
import zlib

import numpy

from kusari.array import configuration
from kusari.datasets import download
from kusari.datasets import tuple_dataset

MIRROR_ENV = 'KUSARI_DATASET_MIRROR'

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


def parse_download(url, parse):
    """Download ``url`` (cached) and return ``parse(path)``.

    Raises:
        ValueError: ``parse`` found the file damaged; the message names the
            URL and the file, and the file has left the cache.
    """
    path = download.cached_download(url)
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
