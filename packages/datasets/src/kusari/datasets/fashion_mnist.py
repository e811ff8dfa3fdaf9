"""The Fashion-MNIST dataset of clothing images."""
import numpy

from kusari.datasets import _mnist_family

#: Where the IDX files are downloaded from (see ``KUSARI_DATASET_MIRROR``).
BASE_URL = 'http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/'

_LABELS = ('T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal',
           'Shirt', 'Sneaker', 'Bag', 'Ankle boot')

#: The published SHA-256 of each file (in tensorflow-datasets 4.9.10,
#: url_checksums/fashion_mnist.txt).
CHECKSUMS = {
    'train-images-idx3-ubyte.gz': 'sha256:'
        '3aede38d61863908ad78613f6a32ed271626dd12800ba2636569512369268a84',
    'train-labels-idx1-ubyte.gz': 'sha256:'
        'a04f17134ac03560a47e3764e11b92fc97de4d1bfaf8ba1a3aa29af54cc90845',
    't10k-images-idx3-ubyte.gz': 'sha256:'
        '346e55b948d973a97e58d2351dde16a484bd415d4595297633bb08f03db6a073',
    't10k-labels-idx1-ubyte.gz': 'sha256:'
        '67da17c76eaffca5446c3361aaab5c3cd6d1c2608764d35dfb1850b086bf8dd5',
}


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
        BASE_URL, CHECKSUMS, withlabel, ndim, scale, dtype, label_dtype,
        rgb_format)
