"""Two-dimensional locally connected layer."""
from kusari.autograd.functions.connection import local_convolution_2d
from kusari.autograd.utils import conv
from kusari.links import link
from kusari.links.layers.connection import _layer


class LocalConvolution2D(link.Link):
    """Two-dimensional local convolution layer: a convolution without
    padding whose filter differs at every output position (see
    :func:`~kusari.autograd.functions.local_convolution_2d`).

    Args:
        in_channels (int or None): Input channels.
        out_channels (int): Output channels.
        in_size (int or pair or None): Input height and width. With
            in_channels or in_size None, the parameters are shaped from the
            first input.
        ksize (int or pair): Filter height and width.
        stride (int or pair): Stride.
        nobias (bool): Leave out the bias.
        initialW: Initializer of ``W`` ``(out, out_h, out_w, in, kh, kw)``;
            None is LeCun normal.
        initial_bias: Initializer of ``b`` ``(out, out_h, out_w)``; None is
            zero.
    """

    def __init__(self, in_channels, out_channels, in_size=None, ksize=None,
                 stride=1, nobias=False, initialW=None, initial_bias=None):
        name = 'LocalConvolution2D'
        if ksize is None:
            raise TypeError(f'{name}: ksize must be given')
        in_channels = _layer.positive_int(name, 'in_channels', in_channels,
                                          allow_none=True)
        if in_size is not None:
            in_size = _layer.ntuple(name, 'in_size', in_size, 2, 1)
        self.out_channels = _layer.positive_int(name, 'out_channels',
                                                out_channels)
        self.ksize = _layer.ntuple(name, 'ksize', ksize, 2, 1)
        self.stride = _layer.ntuple(name, 'stride', stride, 2, 1)
        self.nobias = nobias
        super().__init__()
        with self.init_scope():
            self.W = _layer.parameter(initialW)
            self.b = _layer.bias(nobias, initial_bias)
        if in_channels is not None and in_size is not None:
            self._initialize_params(in_channels, in_size)

    def _initialize_params(self, in_channels, in_size):
        out_size = tuple(
            conv.get_conv_outsize(size, k, s, 0)
            for size, k, s in zip(in_size, self.ksize, self.stride))
        if min(out_size) < 1:
            raise ValueError(
                f'{self._describe()}: an input of size {in_size} is smaller '
                f'than the filter {self.ksize}')
        self.W.initialize(
            (self.out_channels,) + out_size + (in_channels,) + self.ksize)
        if self.b is not None:
            self.b.initialize((self.out_channels,) + out_size)

    def _initialize_from_input(self, x):
        _layer.expect_ndim(self, x, 4, '(n, c, h, w)')
        self._initialize_params(x.shape[1], x.shape[2:])

    def forward(self, x):
        """Apply the layer to ``x`` ``(n, c, h, w)``."""
        if self.W.array is None:
            self._initialize_from_input(x)
        return local_convolution_2d.local_convolution_2d(
            x, self.W, self.b, self.stride)
