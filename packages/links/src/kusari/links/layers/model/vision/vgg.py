"""VGG networks (Simonyan and Zisserman, 2015) with 16 and 19 layers."""
import collections
import functools

from kusari.array import initializers
from kusari.autograd.functions.activation.relu import relu
from kusari.autograd.functions.activation.softmax import softmax
from kusari.autograd.functions.noise.dropout import dropout
from kusari.autograd.functions.pooling.max_pooling_nd import max_pooling_2d
from kusari.links.layers.connection.convolution_2d import Convolution2D
from kusari.links.layers.connection.linear import Linear
from kusari.links.layers.model.vision import _imagenet

# Convolutions per block, and the blocks' channels.
_BLOCKS = {16: (2, 2, 3, 3, 3), 19: (2, 2, 4, 4, 4)}
_CHANNELS = (64, 128, 256, 512, 512)
_pool = functools.partial(max_pooling_2d, ksize=2)

# Whether Pillow, which prepare needs, is installed (as in Chainer).
available = _imagenet.available


def prepare(image, size=(224, 224)):
    """``image`` (PIL image or array) as a VGG input: float32 CHW, BGR,
    resized to ``size``, the mean pixel subtracted."""
    return VGGLayers.prepare(image, size)


class VGGLayers(_imagenet.ImageNetModel):
    """A VGG network of 16 or 19 layers, with the weights of the VGG team
    converted from Caffe.

    Its layers, for :meth:`forward` and :meth:`extract`: ``conv1_1`` ..
    ``conv5_{3,4}``, ``pool1`` .. ``pool5``, ``fc6``, ``fc7``, ``fc8``,
    ``prob``. The input is ``(N, 3, 224, 224)`` as :func:`prepare`
    makes it (smaller inputs work up to ``pool5``).

    Args:
        pretrained_model (str or None): ``'auto'``: the converted weights
            in ``$CHAINER_DATASET_ROOT/pfnet/chainer/models``; a path: an
            NPZ file; None: random weights.
        n_layers (int): 16 or 19.
    """

    source = ('https://www.robots.ox.ac.uk/~vgg/research/very_deep/ '
              '(the Caffe models)')
    mean_bgr = (103.939, 116.779, 123.68)
    default_feature = 'fc7'

    def __init__(self, pretrained_model='auto', n_layers=16):
        if n_layers not in _BLOCKS:
            raise ValueError(f'VGGLayers: n_layers must be 16 or 19, got '
                             f'{n_layers!r}')
        self.n_layers = n_layers
        self.npz_name = f'VGG_ILSVRC_{n_layers}_layers.npz'
        super().__init__(pretrained_model)

    def _build(self, pretrained):
        # Pre-trained weights are loaded over the initial ones: skip the
        # cost of drawing them.
        kwargs = {'initialW': initializers.Zero(),
                  'initial_bias': initializers.Zero()} if pretrained else \
            {'initialW': initializers.Normal(0.01),
             'initial_bias': initializers.Zero()}
        in_channels = 3
        for block, (count, out) in enumerate(
                zip(_BLOCKS[self.n_layers], _CHANNELS), start=1):
            for k in range(1, count + 1):
                setattr(self, f'conv{block}_{k}', Convolution2D(
                    in_channels, out, 3, 1, 1, **kwargs))
                in_channels = out
        self.fc6 = Linear(512 * 7 * 7, 4096, **kwargs)
        self.fc7 = Linear(4096, 4096, **kwargs)
        self.fc8 = Linear(4096, 1000, **kwargs)

    @property
    def caffe_layers(self):
        """The Caffe layers have the names of the links."""
        return {path[1:]: (path, 'weights')
                for path, _ in self.namedlinks(skipself=True)}

    @property
    def functions(self):
        layers = collections.OrderedDict()
        for block, count in enumerate(_BLOCKS[self.n_layers], start=1):
            for k in range(1, count + 1):
                name = f'conv{block}_{k}'
                layers[name] = [self[name], relu]
            layers[f'pool{block}'] = [_pool]
        layers['fc6'] = [self.fc6, relu, dropout]
        layers['fc7'] = [self.fc7, relu, dropout]
        layers['fc8'] = [self.fc8]
        layers['prob'] = [softmax]
        return layers


class VGG16Layers(VGGLayers):
    """VGG network of 16 layers (see :class:`VGGLayers`)."""

    def __init__(self, pretrained_model='auto'):
        super().__init__(pretrained_model, 16)


class VGG19Layers(VGGLayers):
    """VGG network of 19 layers (see :class:`VGGLayers`)."""

    def __init__(self, pretrained_model='auto'):
        super().__init__(pretrained_model, 19)
