"""Two-dimensional deconvolution layer."""
from kusari.autograd.functions.connection import deconvolution_2d
from kusari.links.layers.connection import _convolution


class Deconvolution2D(_convolution.ConvolutionBase):
    """Two-dimensional deconvolution (transposed convolution) layer (see
    :func:`~kusari.autograd.functions.deconvolution_2d`).

    ``Deconvolution2D(out_channels, ksize, ...)`` (or ``in_channels=None``)
    infers the input channels from the first input.

    Args:
        pad (int or pair): Padding cropped from each side.
        outsize (pair or None): Output height and width; None is the
            smallest that fits.
        initialW: Initializer of ``W`` ``(in, out / groups, kh, kw)``;
            None is LeCun normal.
        in_channels, out_channels, ksize, stride, nobias, initial_bias,
        dilate, groups: As in :class:`Convolution2D`.
    """

    transposed = True

    def __init__(self, in_channels, out_channels, ksize=None, stride=1,
                 pad=0, nobias=False, outsize=None, initialW=None,
                 initial_bias=None, *, dilate=1, groups=1):
        super().__init__(2, in_channels, out_channels, ksize, stride, pad,
                         nobias, initialW, initial_bias, dilate, groups,
                         outsize)

    def _apply(self, x):
        return deconvolution_2d.deconvolution_2d(
            x, self.W, self.b, self.stride, self.pad, self.outsize,
            dilate=self.dilate, groups=self.groups)
