"""Two-dimensional depthwise convolution layer."""
from kusari.autograd.functions.connection import depthwise_convolution_2d
from kusari.links import link
from kusari.links.layers.connection import _layer


class DepthwiseConvolution2D(link.Link):
    """Two-dimensional depthwise convolution layer: each input channel is
    convolved with its own ``channel_multiplier`` filters (see
    :func:`~kusari.autograd.functions.depthwise_convolution_2d`).

    Args:
        in_channels (int or None): Input channels; None infers them (and
            shapes ``W`` and ``b``) from the first input.
        channel_multiplier (int): Output channels per input channel.
        ksize (int or pair): Filter height and width.
        stride (int or pair): Stride.
        pad (int or pair): Zero padding of each spatial side.
        nobias (bool): Leave out the bias.
        initialW: Initializer of ``W`` ``(channel_multiplier, in, kh,
            kw)``; None is LeCun normal.
        initial_bias: Initializer of ``b`` ``(channel_multiplier * in,)``;
            None is zero.
    """

    def __init__(self, in_channels, channel_multiplier, ksize, stride=1,
                 pad=0, nobias=False, initialW=None, initial_bias=None):
        name = 'DepthwiseConvolution2D'
        in_channels = _layer.positive_int(name, 'in_channels', in_channels,
                                          allow_none=True)
        self.channel_multiplier = _layer.positive_int(
            name, 'channel_multiplier', channel_multiplier)
        self.ksize = _layer.ntuple(name, 'ksize', ksize, 2, 1)
        self.stride = _layer.ntuple(name, 'stride', stride, 2, 1)
        self.pad = _layer.ntuple(name, 'pad', pad, 2, 0)
        self.nobias = nobias
        super().__init__()
        with self.init_scope():
            self.W = _layer.parameter(initialW)
            self.b = _layer.bias(nobias, initial_bias)
        if in_channels is not None:
            self._initialize_params(in_channels)

    def _initialize_params(self, in_channels):
        self.W.initialize(
            (self.channel_multiplier, in_channels) + self.ksize)
        if self.b is not None:
            self.b.initialize(self.channel_multiplier * in_channels)

    def _initialize_from_input(self, x):
        _layer.expect_ndim(self, x, 4, '(n, c, h, w)')
        self._initialize_params(x.shape[1])

    def forward(self, x):
        """Convolve ``x`` ``(n, c, h, w)``."""
        if self.W.array is None:
            self._initialize_from_input(x)
        return depthwise_convolution_2d.depthwise_convolution_2d(
            x, self.W, self.b, self.stride, self.pad)
