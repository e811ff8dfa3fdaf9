"""The SVHN dataset of house numbers in Google Street View images.

The files are MATLAB ``.mat`` files, read with SciPy: the optional extra
``svhn`` of kusari-datasets.
"""
import numpy

from kusari.datasets import _concrete

#: Where the .mat files are downloaded from (see ``KUSARI_DATASET_MIRROR``).
BASE_URL = 'http://ufldl.stanford.edu/housenumbers/'

#: The published SHA-256 of each file (in tensorflow-datasets 4.9.10,
#: datasets/svhn_cropped/checksums.tsv).
CHECKSUMS = {
    'train_32x32.mat': 'sha256:'
        '435e94d69a87fde4fd4d7f3dd208dfc32cb6ae8af2240d066de1df7508d083b8',
    'test_32x32.mat': 'sha256:'
        'cdce80dfb2a2c4c6160906d0bd7c68ec5a99d7ca4831afa54f09182025b6a75b',
    'extra_32x32.mat': 'sha256:'
        'a133a4beb38a00fcdda90c9489e0c04f900b660ce8a316a5e854838379a71eb3',
}


def _scipy_io():
    try:
        from scipy import io
    except ImportError as e:
        raise ImportError(
            'get_svhn needs SciPy to read the .mat files, the optional '
            'extra "svhn" of kusari-datasets: '
            'pip install "kusari-datasets[svhn]"') from e
    return io


def _read_mat(path):
    io = _scipy_io()
    try:
        raw = io.loadmat(path)
    except io.matlab.MatReadError as e:
        raise ValueError(str(e)) from e
    images, labels = raw['X'], raw['y']
    if images.ndim != 4 or images.shape[:3] != (32, 32, 3):
        raise ValueError(
            f'X must have shape (32, 32, 3, N), got {images.shape}')
    if labels.size != images.shape[3]:
        raise ValueError(
            f'y must hold one label per image ({images.shape[3]}), got '
            f'{labels.size}')
    labels = labels.reshape(-1).astype(numpy.uint8)
    labels[labels == 10] = 0   # the digit 0 is stored as class 10
    return {'x': numpy.ascontiguousarray(
                images.transpose(3, 2, 0, 1), dtype=numpy.uint8),
            'y': labels}


def get_svhn(withlabel=True, scale=1., dtype=None, label_dtype=numpy.int32,
             add_extra=False):
    """The SVHN dataset: 73257 training and 26032 test digit images.

    32x32 RGB crops, each centred on one digit; the label is the digit,
    0 to 9. The files are downloaded once and cached as ``.npz`` under
    ``pfnet/chainer/svhn`` in the dataset root.

    Args:
        withlabel (bool): Return ``(image, label)`` pairs instead of images
            alone.
        scale (float): Pixel values are scaled to ``[0, scale]``.
        dtype: Image dtype; default ``config.dtype``.
        label_dtype: Label dtype.
        add_extra (bool): Also return the 531131 extra, easier, images.

    Returns:
        ``(train, test)``, or ``(train, test, extra)`` with ``add_extra``:
        each a :class:`~kusari.datasets.TupleDataset` of (3, 32, 32)
        images and labels, or an array of images.
    """
    _scipy_io()
    splits = ('train', 'test', 'extra') if add_extra else ('train', 'test')
    datasets = []
    for split in splits:
        raw = _concrete.cached_arrays(
            'pfnet/chainer/svhn', f'{split}.npz',
            lambda split=split: _concrete.fetch(
                'svhn', BASE_URL, f'{split}_32x32.mat', CHECKSUMS,
                _read_mat))
        datasets.append(_concrete.images_and_labels(
            raw['x'], raw['y'], withlabel, scale, dtype, label_dtype))
    return tuple(datasets)
