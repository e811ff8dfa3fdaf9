"""The Kuzushiji-MNIST dataset of cursive Japanese characters."""
import numpy

from kusari.datasets import _mnist_family

#: Where the IDX files are downloaded from (see ``KUSARI_DATASET_MIRROR``).
BASE_URL = 'http://codh.rois.ac.jp/kmnist/dataset/kmnist/'

_LABELS = (('o', 'U+304A'), ('ki', 'U+304D'), ('su', 'U+3059'),
           ('tsu', 'U+3064'), ('na', 'U+306A'), ('ha', 'U+306F'),
           ('ma', 'U+307E'), ('ya', 'U+3084'), ('re', 'U+308C'),
           ('wo', 'U+3092'))

#: The published SHA-256 of each file (in tensorflow-datasets 4.9.10,
#: url_checksums/kmnist.txt).
CHECKSUMS = {
    'train-images-idx3-ubyte.gz': 'sha256:'
        '51467d22d8cc72929e2a028a0428f2086b092bb31cfb79c69cc0a90ce135fde4',
    'train-labels-idx1-ubyte.gz': 'sha256:'
        'e38f9ebcd0f3ebcdec7fc8eabdcdaef93bb0df8ea12bee65224341c8183d8e17',
    't10k-images-idx3-ubyte.gz': 'sha256:'
        'edd7a857845ad6bb1d0ba43fe7e794d164fe2dce499a1694695a792adfac43c5',
    't10k-labels-idx1-ubyte.gz': 'sha256:'
        '20bb9a0ef54c7db3efc55a92eef5582c109615df22683c380526788f98e42a1c',
}


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
        'pfnet/chainer/kuzushiji_mnist', BASE_URL, CHECKSUMS, withlabel,
        ndim, scale, dtype, label_dtype, rgb_format)
