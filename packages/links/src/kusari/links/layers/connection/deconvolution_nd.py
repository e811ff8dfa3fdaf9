"""N-dimensional deconvolution layers: DeconvolutionND, and
Deconvolution1D and Deconvolution3D, its one- and three-dimensional
forms."""
import functools

from kusari.autograd.functions.connection import deconvolution_nd
from kusari.links.layers.connection import _convolution


class DeconvolutionND(_convolution.ConvolutionBase):
    """N-dimensional deconvolution (transposed convolution) layer (see
    :func:`~kusari.autograd.functions.deconvolution_nd`).

    ``DeconvolutionND(ndim, out_channels, ksize, ...)`` (or
    ``in_channels=None``) infers the input channels from the first input.

    Args:
        pad (int or tuple of ints): Padding cropped from each side.
        outsize (tuple of ints or None): Output lengths; None is the
            smallest that fits.
        initialW: Initializer of ``W`` ``(in, out / groups, k_1, ...,
            k_N)``; None is LeCun normal.
        ndim, in_channels, out_channels, ksize, stride, nobias,
        initial_bias, dilate, groups: As in :class:`ConvolutionND`.
    """

    transposed = True
    _takes_ndim = True

    def __init__(self, ndim, in_channels, out_channels, ksize=None,
                 stride=1, pad=0, nobias=False, outsize=None, initialW=None,
                 initial_bias=None, dilate=1, groups=1):
        super().__init__(ndim, in_channels, out_channels, ksize, stride, pad,
                         nobias, initialW, initial_bias, dilate, groups,
                         outsize)

    def _apply(self, x):
        return deconvolution_nd.deconvolution_nd(
            x, self.W, self.b, self.stride, self.pad, self.outsize,
            self.dilate, self.groups)


class Deconvolution1D(DeconvolutionND):
    """1-dimensional deconvolution layer: :class:`DeconvolutionND` with
    ``ndim=1``, for inputs ``(n, c, l)``."""

    _takes_ndim = False
    __init__ = functools.partialmethod(DeconvolutionND.__init__, 1)


class Deconvolution3D(DeconvolutionND):
    """3-dimensional deconvolution layer: :class:`DeconvolutionND` with
    ``ndim=3``, for inputs ``(n, c, d, h, w)``."""

    _takes_ndim = False
    __init__ = functools.partialmethod(DeconvolutionND.__init__, 3)
