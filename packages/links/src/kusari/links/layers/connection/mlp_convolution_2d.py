"""Two-dimensional MLP convolution layer of Network in Network."""
from kusari.autograd.functions.activation import relu
from kusari.links import link
from kusari.links.layers.connection import _layer
from kusari.links.layers.connection import convolution_2d


class MLPConvolution2D(link.ChainList):
    """MLP convolution (Lin et al., Network in Network): a convolution
    followed by 1x1 convolutions, an activation between each two, which
    amounts to an MLP applied to every patch.

    ``MLPConvolution2D(out_channels, ksize, ...)`` (or ``in_channels=None``)
    infers the input channels from the first input.

    Args:
        in_channels (int or None): Input channels.
        out_channels (tuple of ints): Output channels of each layer.
        ksize (int or pair): Filter size of the first convolution.
        stride (int or pair): Its stride.
        pad (int or pair): Its zero padding.
        activation: The function applied between the layers.
        conv_init: Initializer of every ``W``.
        bias_init: Initializer of every ``b``.

    Chainer v1's ``wscale`` is refused (ValueError): the initializers
    set the scale.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1,
                 pad=0, activation=relu.relu, conv_init=None,
                 bias_init=None, **kwargs):
        if 'wscale' in kwargs:
            raise ValueError(
                'MLPConvolution2D: wscale is not supported anymore. Use '
                'conv_init and bias_init argument to change the scale of '
                'initial parameters.')
        if kwargs:
            raise TypeError(
                f'MLPConvolution2D: unexpected keyword argument(s) '
                f'{", ".join(sorted(kwargs))}')
        in_channels, out_channels, ksize = _layer.shift_short_form(
            in_channels, out_channels, ksize)
        if not isinstance(out_channels, (tuple, list)) or \
                not out_channels:
            raise TypeError(
                f'MLPConvolution2D: out_channels must be a non-empty tuple '
                f'of ints; got {out_channels!r}')
        first = convolution_2d.Convolution2D(
            in_channels, out_channels[0], ksize, stride, pad,
            initialW=conv_init, initial_bias=bias_init)
        layers = [first] + [
            convolution_2d.Convolution2D(
                n_in, n_out, 1, initialW=conv_init, initial_bias=bias_init)
            for n_in, n_out in zip(out_channels, out_channels[1:])]
        super().__init__(*layers)
        self.activation = activation

    def forward(self, x):
        """Apply the layers to ``x`` ``(n, c, h, w)``."""
        layers = self._children
        for layer in layers[:-1]:
            x = self.activation(layer(x))
        return layers[-1](x)
