"""The MNIST dataset of handwritten digits."""
import numpy

from kusari.datasets import _mnist_family

#: Where the IDX files are downloaded from (see ``KUSARI_DATASET_MIRROR``).
BASE_URL = 'https://storage.googleapis.com/cvdf-datasets/mnist/'

#: The published SHA-256 of each file (in tensorflow-datasets 4.9.10,
#: url_checksums/mnist.txt).
CHECKSUMS = {
    'train-images-idx3-ubyte.gz': 'sha256:'
        '440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609',
    'train-labels-idx1-ubyte.gz': 'sha256:'
        '3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c',
    't10k-images-idx3-ubyte.gz': 'sha256:'
        '8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6',
    't10k-labels-idx1-ubyte.gz': 'sha256:'
        'f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6',
}


def get_mnist(withlabel=True, ndim=1, scale=1., dtype=None,
              label_dtype=numpy.int32, rgb_format=False):
    """The MNIST dataset: 60000 training and 10000 test digit images.

    The files are downloaded once and converted to ``.npz`` under the
    dataset root (``pfnet/chainer/mnist``).

    Args:
        withlabel (bool): Return ``(image, label)`` pairs instead of
            images alone.
        ndim (int): Image shape: 1 gives (784,), 2 gives (28, 28), 3 gives
            (1, 28, 28).
        scale (float): Pixel values are scaled to ``[0, scale]``.
        dtype: Image dtype; default ``config.dtype``.
        label_dtype: Label dtype.
        rgb_format (bool): With ``ndim=3``, repeat the channel to get
            (3, 28, 28) images.

    Returns:
        A tuple ``(train, test)``: each a
        :class:`~kusari.datasets.TupleDataset` of images and labels, or
        with ``withlabel=False`` an array of images.
    """
    return _mnist_family.get(
        'get_mnist', 'mnist', 'pfnet/chainer/mnist', BASE_URL, CHECKSUMS,
        withlabel, ndim, scale, dtype, label_dtype, rgb_format)
