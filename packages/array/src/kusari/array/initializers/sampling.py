"""Filters for convolutions that resample images: (bi)linear weights.

Both fill a weight of shape ``(c0, c1, *kernel)`` channel-wise: channel
``i`` maps to channel ``i`` only (``c0 == c1``), or every channel gets the
filter when ``c1 == 1`` (one channel per group).
"""
import numpy

from kusari.array.initializers import initializer


class _ChannelwiseFilter(initializer.Initializer):
    """Base: places one spatial kernel on every channel's diagonal."""

    def __init__(self, interpolation='linear', dtype=None):
        if interpolation != 'linear':
            raise ValueError(
                f"{type(self).__name__}: interpolation must be 'linear', "
                f"got {interpolation!r}")
        self.interpolation = interpolation
        super().__init__(dtype)

    def kernel(self, kernel_shape):
        """The spatial kernel (a NumPy array of ``kernel_shape``)."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement kernel')

    def __call__(self, array):
        self.check_array(array)
        name = type(self).__name__
        if array.ndim < 3:
            raise ValueError(
                f'{name}: expected a convolution weight (c0, c1, *kernel) '
                f'of at least 3 dimensions, got shape {array.shape}')
        c0, c1 = array.shape[:2]
        if c1 != 1 and c0 != c1:
            raise ValueError(
                f'{name}: expected equal channel counts or one channel per '
                f'group (shape[1] == 1), got shape {array.shape}')
        values = numpy.zeros(array.shape)
        kernel = self.kernel(array.shape[2:])
        if c1 == 1:
            values[:, 0] = kernel
        else:
            channels = numpy.arange(c0)
            values[channels, channels] = kernel
        initializer.assign(array, values)


def _linear_kernel(size):
    """1-D linear-interpolation weights of an upsampling of factor ~size/2."""
    factor = (size + 1) // 2
    center = factor - 1 if size % 2 else factor - 0.5
    return 1 - abs(numpy.arange(size) - center) / factor


def _linear_filter(kernel_shape):
    """N-D linear-interpolation weights: the outer product of the 1-D
    ones along each axis."""
    kernel = numpy.ones(())
    for size in kernel_shape:
        kernel = numpy.multiply.outer(kernel, _linear_kernel(size))
    return kernel


class UpsamplingDeconvFilter(_ChannelwiseFilter):
    """Fills a deconvolution weight with a (bi)linear upsampling filter.

    Meant for :class:`Deconvolution2D` upsampling by ``factor =
    (ksize + 1) // 2`` (its stride): along each axis the kernel is
    ``1 - |i - center| / factor`` with ``center`` the middle of the
    window, and the N-D kernel is the outer product of those.

    Args:
        interpolation (str): Only ``'linear'``.
        dtype: Data type the filled array must have (None: any float).
    """

    def kernel(self, kernel_shape):
        return _linear_filter(kernel_shape)


class DownsamplingConvFilter(_ChannelwiseFilter):
    """Fills a convolution weight with a (bi)linear downsampling filter.

    Meant for :class:`Convolution2D` with ``stride = (ksize + 1) // 2``:
    the kernel of :class:`UpsamplingDeconvFilter`, divided by its sum so
    that each output pixel is a weighted mean of its window.

    Args:
        interpolation (str): Only ``'linear'``.
        dtype: Data type the filled array must have (None: any float).
    """

    def kernel(self, kernel_shape):
        kernel = _linear_filter(kernel_shape)
        return kernel / kernel.sum()
