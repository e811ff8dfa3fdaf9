"""MNIST and its look-alikes: 28x28 greyscale images in IDX gzip files.

An IDX file holds a big-endian header (a magic number whose last byte is
the number of dimensions, then each dimension as a 32-bit integer) and the
raw uint8 values. Each split is kept as ``train.npz`` / ``test.npz`` with
arrays ``x`` (N, 784) and ``y`` (N,).
"""
import gzip

import numpy

from kusari.datasets import _concrete

_IMAGES_MAGIC = 0x00000803   # uint8, 3 dimensions
_LABELS_MAGIC = 0x00000801   # uint8, 1 dimension
_SPLITS = (('train', 'train.npz'), ('t10k', 'test.npz'))


def read_idx(path, magic):
    """The array of an IDX gzip file whose magic number must be ``magic``."""
    with gzip.open(path, 'rb') as f:
        data = f.read()
    ndim = magic & 0xff
    header = 4 + 4 * ndim
    if len(data) < header:
        raise ValueError(
            f'an IDX header needs {header} bytes, the file has {len(data)}')
    found = int.from_bytes(data[:4], 'big')
    if found != magic:
        raise ValueError(
            f'IDX magic number 0x{magic:08x} expected, got 0x{found:08x}')
    shape = tuple(int(n) for n in numpy.frombuffer(data, '>u4', ndim, 4))
    size = int(numpy.prod(shape))
    if len(data) - header != size:
        raise ValueError(
            f'an IDX array of shape {shape} needs {size} bytes after the '
            f'header, the file has {len(data) - header}')
    return numpy.frombuffer(data, numpy.uint8, offset=header).reshape(shape)


def _split_creator(dataset, base_url, checksums, prefix):
    def create():
        arrays = {}
        for key, name, magic in (
                ('x', f'{prefix}-images-idx3-ubyte.gz', _IMAGES_MAGIC),
                ('y', f'{prefix}-labels-idx1-ubyte.gz', _LABELS_MAGIC)):
            arrays[key] = _concrete.fetch(
                dataset, base_url, name, checksums,
                lambda path, magic=magic: read_idx(path, magic))
        if len(arrays['x']) != len(arrays['y']):
            raise ValueError(
                f'{dataset}: the {prefix} files hold {len(arrays["x"])} '
                f'images but {len(arrays["y"])} labels')
        arrays['x'] = arrays['x'].reshape(len(arrays['x']), -1)
        return arrays
    return create


def get(function, dataset, directory, base_url, checksums, withlabel, ndim,
        scale, dtype, label_dtype, rgb_format):
    """The (train, test) pair of an MNIST-like dataset.

    ``function`` names the public getter in errors, ``dataset`` the mirror
    subdirectory, ``directory`` the cache directory under the dataset root,
    ``checksums`` the published digest of each file.
    """
    _concrete.check_option(function, 'ndim', ndim, (1, 2, 3))
    splits = []
    for prefix, filename in _SPLITS:
        raw = _concrete.cached_arrays(
            directory, filename,
            _split_creator(dataset, base_url, checksums, prefix))
        images = raw['x']
        if ndim == 2:
            images = images.reshape(-1, 28, 28)
        elif ndim == 3:
            images = images.reshape(-1, 1, 28, 28)
            if rgb_format:
                images = numpy.broadcast_to(images, (len(images), 3, 28, 28))
        splits.append(_concrete.images_and_labels(
            images, raw['y'], withlabel, scale, dtype, label_dtype))
    return tuple(splits)
