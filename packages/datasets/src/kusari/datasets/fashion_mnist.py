"""The Fashion-MNIST dataset of clothing images."""
import numpy

from kusari.datasets import _mnist_family

#: Where the IDX files are downloaded from (see ``KUSARI_DATASET_MIRROR``).
BASE_URL = 'http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/'

_LABELS = ('T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal',
           'Shirt', 'Sneaker', 'Bag', 'Ankle boot')


def get_fashion_mnist_labels():
    """The names of the ten Fashion-MNIST classes, indexed by label.

    Returns:
        list of str.
    """
    return list(_LABELS)


def get_fashion_mnist(withlabel=True, ndim=1, scale=1., dtype=None,
                      label_dtype=numpy.int32, rgb_format=False):
    """The Fashion-MNIST dataset: 60000 training and 10000 test images.

    Ten classes of 28x28 greyscale clothing images, in MNIST's format; the
    arguments and the result are those of
    :func:`~kusari.datasets.get_mnist`. Cached under
    ``pfnet/chainer/fashion-mnist``.
    """
    return _mnist_family.get(
        'get_fashion_mnist', 'fashion-mnist', 'pfnet/chainer/fashion-mnist',
        BASE_URL, withlabel, ndim, scale, dtype, label_dtype, rgb_format)
