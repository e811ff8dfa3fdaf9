"""Two-dimensional dilated convolution layer."""
from kusari.autograd.functions.connection import dilated_convolution_2d
from kusari.links.layers.connection import _convolution


class DilatedConvolution2D(_convolution.ConvolutionBase):
    """Two-dimensional dilated (atrous) convolution layer: filter taps
    ``dilate`` pixels apart (see
    :func:`~kusari.autograd.functions.dilated_convolution_2d`).

    Args:
        in_channels (int or None): Input channels; None (or the short
            form ``DilatedConvolution2D(out_channels, ksize)``) infers
            them from the first input.
        out_channels (int): Output channels.
        ksize (int or pair): Filter height and width.
        stride (int or pair): Stride.
        pad (int or pair): Zero padding of each spatial side.
        dilate (int or pair): Spacing of the filter taps.
        nobias (bool): Leave out the bias.
        initialW: Initializer of ``W`` ``(out, in, kh, kw)``.
        initial_bias: Initializer of ``b`` ``(out,)``; None is zero.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1,
                 pad=0, dilate=1, nobias=False, initialW=None,
                 initial_bias=None):
        super().__init__(2, in_channels, out_channels, ksize, stride, pad,
                         nobias, initialW, initial_bias, dilate, 1)

    @property
    def printable_specs(self):
        for key, value in super().printable_specs:
            if key != 'groups':
                yield key, value

    def forward(self, x):
        """Convolve ``x`` ``(n, c, h, w)``."""
        if self.W.array is None:
            self._initialize_from_input(x)
        return dilated_convolution_2d.dilated_convolution_2d(
            x, self.W, self.b, self.stride, self.pad, self.dilate)
