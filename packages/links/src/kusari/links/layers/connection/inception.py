"""Inception module of GoogLeNet."""
from kusari.autograd.functions.activation import relu
from kusari.autograd.functions.array import concat
from kusari.autograd.functions.pooling import max_pooling_nd
from kusari.links import link
from kusari.links.layers.connection import convolution_2d


class Inception(link.Chain):
    """Inception module (Szegedy et al., 2015): four branches over the
    same input, concatenated along the channels and rectified.

    The branches are a 1x1 convolution (``conv1``); a 1x1 projection
    (``proj3``), a rectifier and a 3x3 convolution (``conv3``); the same
    with 5x5 (``proj5``, ``conv5``); and a 3x3 max pooling followed by a
    1x1 projection (``projp``). The spatial size is kept.

    Args:
        in_channels (int or None): Input channels; None infers them.
        out1 (int): Output channels of the 1x1 branch.
        proj3 (int): Channels of the projection before the 3x3 convolution.
        out3 (int): Output channels of the 3x3 branch.
        proj5 (int): Channels of the projection before the 5x5 convolution.
        out5 (int): Output channels of the 5x5 branch.
        proj_pool (int): Output channels of the pooling branch.
        conv_init: Initializer of every convolution's ``W``.
        bias_init: Initializer of every convolution's ``b``.
    """

    def __init__(self, in_channels, out1, proj3, out3, proj5, out5,
                 proj_pool, conv_init=None, bias_init=None):
        super().__init__()

        def conv(n_in, n_out, ksize, pad=0):
            return convolution_2d.Convolution2D(
                n_in, n_out, ksize, pad=pad, initialW=conv_init,
                initial_bias=bias_init)

        with self.init_scope():
            self.conv1 = conv(in_channels, out1, 1)
            self.proj3 = conv(in_channels, proj3, 1)
            self.conv3 = conv(proj3, out3, 3, pad=1)
            self.proj5 = conv(in_channels, proj5, 1)
            self.conv5 = conv(proj5, out5, 5, pad=2)
            self.projp = conv(in_channels, proj_pool, 1)

    def forward(self, x):
        """Apply the module to ``x`` ``(n, c, h, w)``."""
        pooled = max_pooling_nd.max_pooling_2d(x, 3, stride=1, pad=1)
        branches = (self.conv1(x),
                    self.conv3(relu.relu(self.proj3(x))),
                    self.conv5(relu.relu(self.proj5(x))),
                    self.projp(pooled))
        return relu.relu(concat.concat(branches, axis=1))
