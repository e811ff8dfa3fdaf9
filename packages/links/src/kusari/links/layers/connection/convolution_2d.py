"""Two-dimensional convolution layer."""
from kusari.autograd.functions.connection import convolution_2d
from kusari.links.layers.connection import _convolution


class Convolution2D(_convolution.ConvolutionBase):
    """Two-dimensional convolution layer (see
    :func:`~kusari.autograd.functions.convolution_2d`).

    ``Convolution2D(out_channels, ksize, ...)`` (or ``in_channels=None``)
    infers the input channels from the first input.

    Args:
        in_channels (int or None): Input channels.
        out_channels (int): Output channels.
        ksize (int or pair): Filter height and width.
        stride (int or pair): Stride.
        pad (int or pair): Zero padding of each spatial side.
        nobias (bool): Leave out the bias.
        initialW: Initializer of ``W`` ``(out, in / groups, kh, kw)``;
            None is LeCun normal.
        initial_bias: Initializer of ``b`` ``(out,)``; None is zero.
        dilate (int or pair): Spacing of the filter taps.
        groups (int): Number of channel groups.

    Attributes:
        W (~kusari.autograd.Parameter): The filter.
        b (~kusari.autograd.Parameter): The bias, or None.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1,
                 pad=0, nobias=False, initialW=None, initial_bias=None, *,
                 dilate=1, groups=1):
        super().__init__(2, in_channels, out_channels, ksize, stride, pad,
                         nobias, initialW, initial_bias, dilate, groups)

    def _apply(self, x):
        return convolution_2d.convolution_2d(
            x, self.W, self.b, self.stride, self.pad, dilate=self.dilate,
            groups=self.groups)
