"""Two-dimensional deformable convolution layer."""
from kusari.autograd.functions.connection import \
    deformable_convolution_2d_sampler
from kusari.links import link
from kusari.links.layers.connection import _convolution
from kusari.links.layers.connection import _layer
from kusari.links.layers.connection import convolution_2d


class DeformableConvolution2DSampler(_convolution.ConvolutionBase):
    """The sampling part of :class:`DeformableConvolution2D`: a
    convolution reading its input at the given offsets (see
    :func:`~kusari.autograd.functions.deformable_convolution_2d_sampler`).

    Args:
        in_channels (int or None): Input channels; None infers them from
            the first input.
        out_channels (int): Output channels.
        ksize (int or pair): Filter height and width.
        stride (int or pair): Stride.
        pad (int or pair): Zero padding of each spatial side.
        nobias (bool): Leave out the bias.
        initialW: Initializer of ``W`` ``(out, in, kh, kw)``; None is
            zero, as in Chainer (DeformableConvolution2D starts its offset
            convolution random instead).
        initial_bias: Initializer of ``b`` ``(out,)``; None is zero. With
            ``in_channels`` None, ``b`` too is shaped by the first input.
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 nobias=False, initialW=None, initial_bias=None):
        super().__init__(2, in_channels, out_channels, ksize, stride, pad,
                         nobias, 0 if initialW is None else initialW,
                         initial_bias, 1, 1)
        if self.in_channels is None and not nobias:
            # Lazy like W until the first input, as in Chainer.
            with self.init_scope():
                self.b = _layer.bias(nobias, initial_bias)

    def _initialize_params(self, in_channels):
        super()._initialize_params(in_channels)
        if self.b is not None and self.b.array is None:
            self.b.initialize((self.out_channels,))

    def forward(self, x, offset):
        """Convolve ``x`` ``(n, c, h, w)`` sampled at ``offset`` ``(n, 2 kh
        kw, out_h, out_w)``."""
        if self.W.array is None:
            self._initialize_from_input(x)
        return deformable_convolution_2d_sampler.\
            deformable_convolution_2d_sampler(
                x, offset, self.W, self.b, self.stride, self.pad)


class DeformableConvolution2D(link.Chain):
    """Two-dimensional deformable convolution layer (Dai et al., 2017).

    A convolution ``offset_conv`` predicts, at every output position, the
    offsets of the ``kh kw`` filter taps; ``deform_conv`` then convolves the
    input read at those fractional positions.

    Args:
        in_channels (int or None): Input channels; None infers them from
            the first input.
        out_channels (int): Output channels.
        ksize (int or pair): Filter height and width.
        stride (int or pair): Stride.
        pad (int or pair): Zero padding of each spatial side.
        offset_nobias, offset_initialW, offset_initial_bias: ``nobias``,
            ``initialW`` and ``initial_bias`` of ``offset_conv`` (a
            :class:`Convolution2D` with ``2 kh kw`` output channels).
        deform_nobias, deform_initialW, deform_initial_bias: those of
            ``deform_conv`` (``deform_initialW`` None is zero).
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 offset_nobias=False, offset_initialW=None,
                 offset_initial_bias=None, deform_nobias=False,
                 deform_initialW=None, deform_initial_bias=None):
        super().__init__()
        deform_conv = DeformableConvolution2DSampler(
            in_channels, out_channels, ksize, stride, pad, deform_nobias,
            deform_initialW, deform_initial_bias)
        kh, kw = deform_conv.ksize
        with self.init_scope():
            self.offset_conv = convolution_2d.Convolution2D(
                in_channels, 2 * kh * kw, ksize, stride, pad, offset_nobias,
                offset_initialW, offset_initial_bias)
            self.deform_conv = deform_conv

    def forward(self, x):
        """Convolve ``x`` ``(n, c, h, w)`` at the predicted offsets."""
        return self.deform_conv(x, self.offset_conv(x))
