"""GoogLeNet (Szegedy et al., 2015), as trained by BVLC."""
import collections
import functools

from kusari.array import initializers
from kusari.autograd.functions.activation.relu import relu
from kusari.autograd.functions.activation.softmax import softmax
from kusari.autograd.functions.noise.dropout import dropout
from kusari.autograd.functions.normalization.local_response_normalization \
    import local_response_normalization
from kusari.autograd.functions.pooling.average_pooling_2d import \
    average_pooling_2d
from kusari.autograd.functions.pooling.max_pooling_nd import max_pooling_2d
from kusari.links.layers.connection.convolution_2d import Convolution2D
from kusari.links.layers.connection.inception import Inception
from kusari.links.layers.connection.linear import Linear
from kusari.links.layers.model.vision import _imagenet

# name: (in_channels, out1, proj3, out3, proj5, out5, proj_pool)
_INCEPTIONS = {
    'inc3a': (192, 64, 96, 128, 16, 32, 32),
    'inc3b': (256, 128, 128, 192, 32, 96, 64),
    'inc4a': (480, 192, 96, 208, 16, 48, 64),
    'inc4b': (512, 160, 112, 224, 24, 64, 64),
    'inc4c': (512, 128, 128, 256, 24, 64, 64),
    'inc4d': (512, 112, 144, 288, 32, 64, 64),
    'inc4e': (528, 256, 160, 320, 32, 128, 128),
    'inc5a': (832, 256, 160, 320, 32, 128, 128),
    'inc5b': (832, 384, 192, 384, 48, 128, 128),
}
# The convolutions of an inception module in Caffe and in Inception.
_INCEPTION_UNITS = {'1x1': 'conv1', '3x3_reduce': 'proj3', '3x3': 'conv3',
                    '5x5_reduce': 'proj5', '5x5': 'conv5',
                    'pool_proj': 'projp'}
_pool = functools.partial(max_pooling_2d, ksize=3, stride=2)
_lrn = functools.partial(local_response_normalization, n=5, k=1,
                         alpha=1e-4 / 5)
_global_pool = functools.partial(average_pooling_2d, ksize=7, stride=1)
_dropout = functools.partial(dropout, ratio=0.4)

# Whether Pillow, which prepare needs, is installed (as in Chainer).
available = _imagenet.available


def prepare(image, size=(224, 224)):
    """``image`` (PIL image or array) as a GoogLeNet input: float32 CHW,
    BGR, resized to ``size``, the mean pixel subtracted."""
    return GoogLeNet.prepare(image, size)


class GoogLeNet(_imagenet.ImageNetModel):
    """GoogLeNet with the weights of BVLC converted from Caffe.

    Its layers, for :meth:`forward` and :meth:`extract`: ``conv1``,
    ``pool1``, ``conv2_reduce``, ``conv2``, ``pool2``, ``inception_3a``,
    ``inception_3b``, ``pool3``, ``inception_4a`` .. ``inception_4e``,
    ``pool4``, ``inception_5a``, ``inception_5b``, ``pool5``,
    ``loss3_fc``, ``prob``. The auxiliary classifiers (``loss1_*``,
    ``loss2_*``) hold weights for training but are not on this path.

    Args:
        pretrained_model (str or None): ``'auto'``: the converted weights
            in ``$CHAINER_DATASET_ROOT/pfnet/chainer/models``; a path: an
            NPZ file; None: random weights.
    """

    npz_name = 'bvlc_googlenet.npz'
    source = ('http://dl.caffe.berkeleyvision.org/bvlc_googlenet.caffemodel'
              ' (BVLC)')
    mean_bgr = (104.0, 117.0, 123.0)
    default_feature = 'pool5'

    def __init__(self, pretrained_model='auto'):
        super().__init__(pretrained_model)

    def _build(self, pretrained):
        init = initializers.Zero() if pretrained else None
        kwargs = {'initialW': init, 'initial_bias': init}
        self.conv1 = Convolution2D(3, 64, 7, stride=2, pad=3, **kwargs)
        self.conv2_reduce = Convolution2D(64, 64, 1, **kwargs)
        self.conv2 = Convolution2D(64, 192, 3, stride=1, pad=1, **kwargs)
        for name, sizes in _INCEPTIONS.items():
            setattr(self, name, Inception(*sizes, conv_init=init,
                                          bias_init=init))
        self.loss3_fc = Linear(1024, 1000, **kwargs)
        for branch, in_channels in (('loss1', 512), ('loss2', 528)):
            setattr(self, f'{branch}_conv',
                    Convolution2D(in_channels, 128, 1, **kwargs))
            setattr(self, f'{branch}_fc1', Linear(2048, 1024, **kwargs))
            setattr(self, f'{branch}_fc2', Linear(1024, 1000, **kwargs))

    @property
    def caffe_layers(self):
        """The layer names of BVLC's bvlc_googlenet.caffemodel."""
        layers = {'conv1/7x7_s2': '/conv1', 'conv2/3x3_reduce':
                  '/conv2_reduce', 'conv2/3x3': '/conv2',
                  'loss3/classifier': '/loss3_fc'}
        for branch in ('loss1', 'loss2'):
            layers.update({f'{branch}/conv': f'/{branch}_conv',
                           f'{branch}/fc': f'/{branch}_fc1',
                           f'{branch}/classifier': f'/{branch}_fc2'})
        for name in _INCEPTIONS:
            caffe = f'inception_{name[3:]}'
            for unit, link_name in _INCEPTION_UNITS.items():
                layers[f'{caffe}/{unit}'] = f'/{name}/{link_name}'
        return {caffe: (path, 'weights') for caffe, path in layers.items()}

    @property
    def functions(self):
        layers = collections.OrderedDict([
            ('conv1', [self.conv1, relu]),
            ('pool1', [_pool, _lrn]),
            ('conv2_reduce', [self.conv2_reduce, relu]),
            ('conv2', [self.conv2, relu, _lrn]),
            ('pool2', [_pool]),
        ])
        for stage, letters, pool in (('3', 'ab', 'pool3'),
                                     ('4', 'abcde', 'pool4'),
                                     ('5', 'ab', None)):
            for letter in letters:
                layers[f'inception_{stage}{letter}'] = [
                    self[f'inc{stage}{letter}']]
            if pool:
                layers[pool] = [_pool]
        layers['pool5'] = [_global_pool]
        layers['loss3_fc'] = [_dropout, self.loss3_fc]
        layers['prob'] = [softmax]
        return layers
