"""Residual networks (He et al., 2016) of 50, 101 and 152 layers, as
trained by MSRA."""
import collections
import functools

from kusari.array import initializers
from kusari.autograd.functions.activation.relu import relu
from kusari.autograd.functions.activation.softmax import softmax
from kusari.autograd.functions.math.average import average
from kusari.autograd.functions.pooling.max_pooling_nd import max_pooling_2d
from kusari.links import link
from kusari.links.layers.connection.convolution_2d import Convolution2D
from kusari.links.layers.connection.linear import Linear
from kusari.links.layers.model.vision import _imagenet
from kusari.links.layers.normalization.batch_normalization import \
    BatchNormalization

# Bottlenecks per stage.
_STAGES = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}
_pool = functools.partial(max_pooling_2d, ksize=3, stride=2)

# Whether Pillow, which prepare needs, is installed (as in Chainer).
available = _imagenet.available


def _global_average_pooling_2d(x):
    return average(x, axis=(2, 3))


# The residual units of a bottleneck in Caffe, and the index of their
# convolution and normalization here; the first bottleneck of a stage also
# has the shortcut's, unit '1', index 4.
_CAFFE_UNITS = (('2a', 1), ('2b', 2), ('2c', 3))


def _caffe_block_name(n_layers, stage, index):
    """Caffe's name of a bottleneck: ``'4a'``, ``'4b'``, ...; in the deep
    stages 3 and 4 of the 101 and 152 layer models ``'4a'``, ``'4b1'``,
    ``'4b2'``, ..."""
    if index and n_layers > 50 and stage in (3, 4):
        return f'{stage}b{index}'
    return f'{stage}{"abcdefghijklmnopqrstuvwxyz"[index]}'


def prepare(image, size=(224, 224)):
    """``image`` (PIL image or array) as a ResNet input: float32 CHW, BGR,
    resized to ``size``, the mean pixel subtracted."""
    return ResNetLayers.prepare(image, size)


class _Bottleneck(link.Chain):
    """1x1, 3x3, 1x1 convolutions, each normalized (the first two then
    rectified), added to the shortcut and rectified."""

    def _units(self, in_channels, mid_channels, out_channels, strides,
               initialW):
        with self.init_scope():
            for k, (n_in, n_out, ksize, stride) in enumerate((
                    (in_channels, mid_channels, 1, strides[0]),
                    (mid_channels, mid_channels, 3, strides[1]),
                    (mid_channels, out_channels, 1, 1)), start=1):
                setattr(self, f'conv{k}', Convolution2D(
                    n_in, n_out, ksize, stride, ksize // 2,
                    initialW=initialW, nobias=True))
                setattr(self, f'bn{k}', BatchNormalization(n_out))

    def _residual(self, x):
        h = relu(self.bn1(self.conv1(x)))
        h = relu(self.bn2(self.conv2(h)))
        return self.bn3(self.conv3(h))


class BottleneckA(_Bottleneck):
    """The first bottleneck of a stage: it changes the channels (and with
    ``stride`` the size), so its shortcut is a strided 1x1 convolution
    ``conv4`` with normalization ``bn4``. ``downsample_fb`` strides the
    3x3 convolution instead of the first 1x1 (as in fb.resnet.torch)."""

    def __init__(self, in_channels, mid_channels, out_channels, stride=2,
                 initialW=None, downsample_fb=False):
        super().__init__()
        strides = (1, stride) if downsample_fb else (stride, 1)
        self._units(in_channels, mid_channels, out_channels, strides,
                    initialW)
        with self.init_scope():
            self.conv4 = Convolution2D(in_channels, out_channels, 1, stride,
                                       0, initialW=initialW, nobias=True)
            self.bn4 = BatchNormalization(out_channels)

    def forward(self, x):
        return relu(self._residual(x) + self.bn4(self.conv4(x)))


class BottleneckB(_Bottleneck):
    """A bottleneck keeping the channels: the shortcut is the input."""

    def __init__(self, in_channels, mid_channels, initialW=None):
        super().__init__()
        self._units(in_channels, mid_channels, in_channels, (1, 1),
                    initialW)

    def forward(self, x):
        return relu(self._residual(x) + x)


class BuildingBlock(link.Chain):
    """A stage: :class:`BottleneckA` ``a``, then ``n_layer - 1``
    :class:`BottleneckB` ``b1``, ``b2``, ..."""

    def __init__(self, n_layer, in_channels, mid_channels, out_channels,
                 stride, initialW=None, downsample_fb=False):
        super().__init__()
        self._order = ['a'] + [f'b{k}' for k in range(1, n_layer)]
        with self.init_scope():
            self.a = BottleneckA(in_channels, mid_channels, out_channels,
                                 stride, initialW, downsample_fb)
            for name in self._order[1:]:
                setattr(self, name, BottleneckB(out_channels, mid_channels,
                                                initialW))

    def forward(self, x):
        for name in self._order:
            x = self[name](x)
        return x


class ResNetLayers(_imagenet.ImageNetModel):
    """A residual network of 50, 101 or 152 layers with the weights of
    MSRA converted from Caffe.

    Its layers, for :meth:`forward` and :meth:`extract`: ``conv1``,
    ``pool1``, ``res2`` .. ``res5``, ``pool5``, ``fc6``, ``prob``.

    Args:
        pretrained_model (str or None): ``'auto'``: the converted weights
            in ``$CHAINER_DATASET_ROOT/pfnet/chainer/models``; a path: an
            NPZ file; None: random weights.
        n_layers (int): 50, 101 or 152.
        downsample_fb (bool): Stride the 3x3 convolutions rather than the
            first 1x1 ones (the fb.resnet.torch variant).
    """

    source = ('https://github.com/KaimingHe/deep-residual-networks '
              '(the Caffe models, ResNet-<n>-model.caffemodel)')
    mean_bgr = (103.063, 115.903, 123.152)
    default_feature = 'pool5'

    def __init__(self, pretrained_model, n_layers, downsample_fb=False):
        if n_layers not in _STAGES:
            raise ValueError(
                f'ResNetLayers: n_layers must be 50, 101 or 152, got '
                f'{n_layers!r}')
        self.n_layers = n_layers
        self.npz_name = f'ResNet-{n_layers}-model.npz'
        super().__init__(pretrained_model, n_layers, downsample_fb)

    def _build(self, pretrained, n_layers, downsample_fb):
        initialW = initializers.Zero() if pretrained else \
            initializers.HeNormal(scale=1.0)
        self.conv1 = Convolution2D(3, 64, 7, 2, 3, initialW=initialW)
        self.bn1 = BatchNormalization(64)
        in_channels = 64
        for stage, (count, mid, stride) in enumerate(zip(
                _STAGES[n_layers], (64, 128, 256, 512), (1, 2, 2, 2)),
                start=2):
            setattr(self, f'res{stage}', BuildingBlock(
                count, in_channels, mid, mid * 4, stride, initialW,
                downsample_fb))
            in_channels = mid * 4
        self.fc6 = Linear(2048, 1000)

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz,
                                  n_layers=None):
        """Convert MSRA's ResNet-<n>-model.caffemodel into the NPZ file
        ``pretrained_model`` loads.

        Args:
            path_caffemodel (str): The ``.caffemodel`` file.
            path_npz (str): The NPZ file to write.
            n_layers (int): 50, 101 or 152; by default the class's (50 for
                ResNetLayers itself).
        """
        if cls is ResNetLayers:
            model = cls(None, 50 if n_layers is None else n_layers)
        else:
            model = cls(None)
            if n_layers not in (None, model.n_layers):
                raise ValueError(
                    f'{cls.__name__}.convert_caffemodel_to_npz: n_layers '
                    f'is {model.n_layers} for this class, got {n_layers!r}')
        model._convert_caffemodel(path_caffemodel, path_npz)

    @property
    def caffe_layers(self):
        """The layer names of MSRA's ResNet-<n>-model.caffemodel: a
        convolution ``res<block>_branch<unit>`` with its normalization in
        two layers, ``bn...`` (statistics) and ``scale...`` (gamma,
        beta)."""
        layers = {'conv1': ('/conv1', 'weights'),
                  'bn_conv1': ('/bn1', 'statistics'),
                  'scale_conv1': ('/bn1', 'scale'),
                  'fc1000': ('/fc6', 'weights')}
        for stage, count in enumerate(_STAGES[self.n_layers], start=2):
            for index in range(count):
                block = _caffe_block_name(self.n_layers, stage, index)
                path = f'/res{stage}/{"a" if index == 0 else f"b{index}"}'
                units = _CAFFE_UNITS if index else _CAFFE_UNITS + (
                    ('1', 4),)
                for unit, k in units:
                    suffix = f'{block}_branch{unit}'
                    layers[f'res{suffix}'] = (f'{path}/conv{k}', 'weights')
                    layers[f'bn{suffix}'] = (f'{path}/bn{k}', 'statistics')
                    layers[f'scale{suffix}'] = (f'{path}/bn{k}', 'scale')
        return layers

    @property
    def functions(self):
        return collections.OrderedDict([
            ('conv1', [self.conv1, self.bn1, relu]),
            ('pool1', [_pool]),
            ('res2', [self.res2]),
            ('res3', [self.res3]),
            ('res4', [self.res4]),
            ('res5', [self.res5]),
            ('pool5', [_global_average_pooling_2d]),
            ('fc6', [self.fc6]),
            ('prob', [softmax]),
        ])


class ResNet50Layers(ResNetLayers):
    """Residual network of 50 layers (see :class:`ResNetLayers`)."""

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        super().__init__(pretrained_model, 50, downsample_fb)


class ResNet101Layers(ResNetLayers):
    """Residual network of 101 layers (see :class:`ResNetLayers`)."""

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        super().__init__(pretrained_model, 101, downsample_fb)


class ResNet152Layers(ResNetLayers):
    """Residual network of 152 layers (see :class:`ResNetLayers`)."""

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        super().__init__(pretrained_model, 152, downsample_fb)
