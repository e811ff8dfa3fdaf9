"""The Kuzushiji-MNIST dataset of cursive Japanese characters."""
import numpy

from kusari.datasets import _mnist_family

#: Where the IDX files are downloaded from (see ``KUSARI_DATASET_MIRROR``).
BASE_URL = 'http://codh.rois.ac.jp/kmnist/dataset/kmnist/'

_LABELS = (('o', 'U+304A'), ('ki', 'U+304D'), ('su', 'U+3059'),
           ('tsu', 'U+3064'), ('na', 'U+306A'), ('ha', 'U+306F'),
           ('ma', 'U+307E'), ('ya', 'U+3084'), ('re', 'U+308C'),
           ('wo', 'U+3092'))


def get_kuzushiji_mnist_labels():
    """The ten Kuzushiji-MNIST classes, indexed by label.

    Returns:
        list of tuples ``(romaji, code point)``, e.g. ``('o', 'U+304A')``
        for the hiragana お.
    """
    return list(_LABELS)


def get_kuzushiji_mnist(withlabel=True, ndim=1, scale=1., dtype=None,
                        label_dtype=numpy.int32, rgb_format=False):
    """The Kuzushiji-MNIST dataset: 60000 training and 10000 test images.

    Ten classes of 28x28 greyscale hiragana, in MNIST's format; the
    arguments and the result are those of
    :func:`~kusari.datasets.get_mnist`. Cached under
    ``pfnet/chainer/kuzushiji_mnist``.
    """
    return _mnist_family.get(
        'get_kuzushiji_mnist', 'kuzushiji-mnist',
        'pfnet/chainer/kuzushiji_mnist', BASE_URL, withlabel, ndim, scale,
        dtype, label_dtype, rgb_format)
