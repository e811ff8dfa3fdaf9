"""The CIFAR-10 and CIFAR-100 datasets of 32x32 colour images.

The archives hold the splits as Python pickles, which are unpickled to
read them. Unpickling can run code, so this trusts the server (or the
mirror set by ``KUSARI_DATASET_MIRROR``); nothing is extracted to disk.
"""
import pickle
import tarfile
import typing

import numpy

from kusari.datasets import _concrete

#: Where the archives are downloaded from (see ``KUSARI_DATASET_MIRROR``).
BASE_URL = 'https://www.cs.toronto.edu/~kriz/'

#: The published SHA-256 of each archive (in Keras 3.15's datasets).
CHECKSUMS = {
    'cifar-10-python.tar.gz': 'sha256:'
        '6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce',
    'cifar-100-python.tar.gz': 'sha256:'
        '85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e1ef29b855ba677a7',
}


class _Spec(typing.NamedTuple):
    archive: str        # the file name of the tar.gz
    top: str            # the directory inside it
    train_members: list
    test_member: str
    label_key: bytes    # the key of the labels in each pickled dict
    cache_name: str     # the npz under the dataset directory


_CIFAR10 = _Spec('cifar-10-python.tar.gz', 'cifar-10-batches-py',
                 [f'data_batch_{i}' for i in range(1, 6)], 'test_batch',
                 b'labels', 'cifar-10.npz')
_CIFAR100 = _Spec('cifar-100-python.tar.gz', 'cifar-100-python', ['train'],
                  'test', b'fine_labels', 'cifar-100.npz')


def _read_archive(path, spec):
    arrays = {}
    with tarfile.open(path, 'r:gz') as archive:
        for split, members in (('train', spec.train_members),
                               ('test', [spec.test_member])):
            images, labels = [], []
            for member in members:
                name = f'{spec.top}/{member}'
                f = archive.extractfile(name)
                if f is None:
                    raise ValueError(f'{name} is not a file')
                with f:
                    batch = pickle.load(f, encoding='bytes')
                images.append(numpy.asarray(batch[b'data'], numpy.uint8))
                labels.append(
                    numpy.asarray(batch[spec.label_key], numpy.uint8))
            # Each row is a 32x32 red plane, then green, then blue.
            arrays[f'{split}_x'] = numpy.concatenate(images).reshape(
                -1, 3072)
            arrays[f'{split}_y'] = numpy.concatenate(labels)
    return arrays


def _get(function, spec, withlabel, ndim, scale, dtype):
    _concrete.check_option(function, 'ndim', ndim, (1, 3))
    raw = _concrete.cached_arrays(
        'pfnet/chainer/cifar', spec.cache_name,
        lambda: _concrete.fetch(
            'cifar', BASE_URL, spec.archive, CHECKSUMS,
            lambda path: _read_archive(path, spec)))
    return tuple(
        _concrete.images_and_labels(
            raw[f'{split}_x'].reshape((-1, 3072) if ndim == 1
                                      else (-1, 3, 32, 32)),
            raw[f'{split}_y'], withlabel, scale, dtype, numpy.int32)
        for split in ('train', 'test'))


def get_cifar10(withlabel=True, ndim=3, scale=1., dtype=None):
    """The CIFAR-10 dataset: 50000 training and 10000 test images.

    Ten classes of 32x32 RGB images, downloaded once and cached as
    ``cifar-10.npz`` under ``pfnet/chainer/cifar`` in the dataset root.

    Args:
        withlabel (bool): Return ``(image, label)`` pairs (int32 labels)
            instead of images alone.
        ndim (int): 3 gives (3, 32, 32) images, 1 gives (3072,).
        scale (float): Pixel values are scaled to ``[0, scale]``.
        dtype: Image dtype; default ``config.dtype``.

    Returns:
        A tuple ``(train, test)``: each a
        :class:`~kusari.datasets.TupleDataset`, or an array of images.
    """
    return _get('get_cifar10', _CIFAR10, withlabel, ndim, scale, dtype)


def get_cifar100(withlabel=True, ndim=3, scale=1., dtype=None):
    """The CIFAR-100 dataset: 50000 training and 10000 test images.

    A hundred classes (the fine labels) of 32x32 RGB images, cached as
    ``cifar-100.npz``; the arguments and result are those of
    :func:`get_cifar10`.
    """
    return _get('get_cifar100', _CIFAR100, withlabel, ndim, scale, dtype)
