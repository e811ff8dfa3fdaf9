"""The MNIST dataset of handwritten digits."""
import numpy

from kusari.datasets import _mnist_family

#: Where the IDX files are downloaded from (see ``KUSARI_DATASET_MIRROR``).
BASE_URL = 'https://storage.googleapis.com/cvdf-datasets/mnist/'


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
        'get_mnist', 'mnist', 'pfnet/chainer/mnist', BASE_URL, withlabel,
        ndim, scale, dtype, label_dtype, rgb_format)
