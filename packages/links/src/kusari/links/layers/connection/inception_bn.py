"""Inception module with batch normalization (GoogLeNet v2)."""
from kusari.autograd.functions.activation import relu
from kusari.autograd.functions.array import concat
from kusari.autograd.functions.pooling import average_pooling_2d
from kusari.autograd.functions.pooling import max_pooling_nd
from kusari.links import link
from kusari.links.layers.connection import convolution_2d
from kusari.links.layers.normalization import batch_normalization

_POOL_TYPES = ('max', 'avg')


class InvalidArchitectureError(ValueError, AssertionError):
    """A 1x1 branch without ``stride=1`` and ``proj_pool``; an
    AssertionError too, as Chainer asserts this."""


class UnknownPoolTypeError(ValueError, NotImplementedError):
    """A pooltype other than ``'max'`` and ``'avg'``; a
    NotImplementedError too, as in Chainer."""


class InceptionBN(link.Chain):
    """Inception module of Ioffe and Szegedy (2015): every convolution is
    followed by batch normalization and a rectifier, the 5x5 branch is two
    3x3 convolutions, and the module may reduce the spatial size by
    ``stride``.

    The branches, concatenated along the channels: a 1x1 convolution
    (``conv1``, only when ``out1 > 0``); a 1x1 projection (``proj3``) then
    a 3x3 convolution (``conv3``); a 1x1 projection (``proj33``) then two
    3x3 convolutions (``conv33a``, ``conv33b``); a 3x3 max or average
    pooling, followed by a 1x1 projection (``poolp``) if ``proj_pool`` is
    given. Each convolution ``name`` has its normalization ``name + 'n'``.

    Args:
        in_channels (int or None): Input channels; None infers them.
        out1 (int): Output channels of the 1x1 branch; 0 leaves it out.
        proj3 (int): Channels of the projection before the 3x3 convolution.
        out3 (int): Output channels of the 3x3 branch.
        proj33 (int): Channels of the projection before the double 3x3.
        out33 (int): Output channels of the double 3x3 branch.
        pooltype (str): ``'max'`` or ``'avg'``.
        proj_pool (int or None): Output channels of the projection after
            pooling; None passes the pooled input through.
        stride (int): Stride of the last convolution of each branch and of
            the pooling; the 1x1 branch needs 1.
        conv_init: Initializer of every convolution's ``W``.
        dtype: dtype of the batch normalization parameters.
    """

    def __init__(self, in_channels, out1, proj3, out3, proj33, out33,
                 pooltype, proj_pool=None, stride=1, conv_init=None,
                 dtype=None):
        if pooltype not in _POOL_TYPES:
            raise UnknownPoolTypeError(
                f"InceptionBN: pooltype must be 'max' or 'avg'; got "
                f"{pooltype!r}")
        if out1 > 0 and (stride != 1 or proj_pool is None):
            raise InvalidArchitectureError(
                f'InceptionBN: the 1x1 branch (out1={out1}) needs stride=1 '
                f'and proj_pool; got stride={stride}, proj_pool={proj_pool}')
        super().__init__()
        self.out1 = out1
        self.proj_pool = proj_pool
        self.stride = stride
        self.pooltype = pooltype
        # (convolution name, its in and out channels, ksize, stride)
        convolutions = [
            ('proj3', in_channels, proj3, 1, 1),
            ('conv3', proj3, out3, 3, stride),
            ('proj33', in_channels, proj33, 1, 1),
            ('conv33a', proj33, out33, 3, 1),
            ('conv33b', out33, out33, 3, stride)]
        if out1 > 0:
            convolutions.append(('conv1', in_channels, out1, 1, 1))
        if proj_pool is not None:
            convolutions.append(('poolp', in_channels, proj_pool, 1, 1))
        with self.init_scope():
            for name, n_in, n_out, ksize, conv_stride in convolutions:
                setattr(self, name, convolution_2d.Convolution2D(
                    n_in, n_out, ksize, conv_stride, ksize // 2,
                    nobias=True, initialW=conv_init))
                setattr(self, name + 'n',
                        batch_normalization.BatchNormalization(
                            n_out, dtype=dtype))

    def _unit(self, name, x):
        """Convolution ``name``, its normalization, and a rectifier."""
        return relu.relu(self[name + 'n'](self[name](x)))

    def forward(self, x):
        """Apply the module to ``x`` ``(n, c, h, w)``."""
        branches = []
        if self.out1 > 0:
            branches.append(self._unit('conv1', x))
        branches.append(self._unit('conv3', self._unit('proj3', x)))
        branches.append(self._unit(
            'conv33b', self._unit('conv33a', self._unit('proj33', x))))
        if self.pooltype == 'max':
            pooled = max_pooling_nd.max_pooling_2d(
                x, 3, stride=self.stride, pad=1, cover_all=False)
        else:
            pooled = average_pooling_2d.average_pooling_2d(
                x, 3, stride=self.stride, pad=1)
        if self.proj_pool is not None:
            pooled = self._unit('poolp', pooled)
        branches.append(pooled)
        return concat.concat(branches, axis=1)
