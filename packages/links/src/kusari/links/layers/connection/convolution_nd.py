"""N-dimensional convolution layers: ConvolutionND, and Convolution1D and
Convolution3D, its one- and three-dimensional forms."""
import functools

from kusari.autograd.functions.connection import convolution_nd
from kusari.links.layers.connection import _convolution


class ConvolutionND(_convolution.ConvolutionBase):
    """N-dimensional convolution layer (see
    :func:`~kusari.autograd.functions.convolution_nd`).

    ``ConvolutionND(ndim, out_channels, ksize, ...)`` (or
    ``in_channels=None``) infers the input channels from the first input.

    Args:
        ndim (int): Number of spatial axes.
        in_channels (int or None): Input channels.
        out_channels (int): Output channels.
        ksize (int or tuple of ints): Filter size.
        stride (int or tuple of ints): Stride.
        pad (int or tuple of ints): Zero padding of each spatial side.
        nobias (bool): Leave out the bias.
        initialW: Initializer of ``W`` ``(out, in / groups, k_1, ...,
            k_N)``; None is LeCun normal.
        initial_bias: Initializer of ``b`` ``(out,)``; None is zero.
        cover_all (bool): Add output positions so that every input
            element is read.
        dilate (int or tuple of ints): Spacing of the filter taps.
        groups (int): Number of channel groups.
    """

    _takes_ndim = True

    def __init__(self, ndim, in_channels, out_channels, ksize=None,
                 stride=1, pad=0, nobias=False, initialW=None,
                 initial_bias=None, cover_all=False, dilate=1, groups=1):
        super().__init__(ndim, in_channels, out_channels, ksize, stride, pad,
                         nobias, initialW, initial_bias, dilate, groups)
        self.cover_all = bool(cover_all)

    @property
    def printable_specs(self):
        yield from super().printable_specs
        yield 'cover_all', self.cover_all

    def _apply(self, x):
        return convolution_nd.convolution_nd(
            x, self.W, self.b, self.stride, self.pad, self.cover_all,
            self.dilate, self.groups)


class Convolution1D(ConvolutionND):
    """1-dimensional convolution layer: :class:`ConvolutionND` with
    ``ndim=1``, for inputs ``(n, c, l)``."""

    _takes_ndim = False
    __init__ = functools.partialmethod(ConvolutionND.__init__, 1)


class Convolution3D(ConvolutionND):
    """3-dimensional convolution layer: :class:`ConvolutionND` with
    ``ndim=3``, for inputs ``(n, c, d, h, w)``."""

    _takes_ndim = False
    __init__ = functools.partialmethod(ConvolutionND.__init__, 3)
