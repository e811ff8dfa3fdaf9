"""What the pre-trained ImageNet models share: the layer-by-layer
forward, feature extraction, prediction over crops, image preparation and
the loading of converted weights."""
import importlib.util
import os

import numpy

from kusari.array import configuration
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.variable import Variable
from kusari.links import link
from kusari.links.layers.model.vision import _caffemodel
from kusari.links.layers.model.vision import _npz

#: Whether Pillow, which preparing images needs, is installed (Chainer's
#: ``available`` of each vision model module).
available = importlib.util.find_spec('PIL') is not None

#: Where ``pretrained_model='auto'`` looks, under the dataset root.
MODELS_DIRECTORY = os.path.join('pfnet', 'chainer', 'models')


def prepare_image(image, size, mean_bgr, caller):
    """An image (PIL image, or array HW / CHW / HWC with 1 or 3 channels)
    as a float32 CHW BGR array resized to ``size`` (None keeps it) with
    ``mean_bgr`` subtracted, as the converted Caffe models expect."""
    try:
        from PIL import Image
    except ImportError:
        raise ImportError(f'{caller} needs Pillow: pip install '
                          f'pillow') from None
    if isinstance(image, numpy.ndarray):
        if image.ndim == 3 and image.shape[0] in (1, 3) and \
                image.shape[2] not in (1, 3):
            image = image.transpose(1, 2, 0)
        if image.ndim == 3 and image.shape[2] == 1:
            image = image[:, :, 0]
        image = Image.fromarray(image.astype(numpy.uint8))
    image = image.convert('RGB')
    if size:
        image = image.resize(size)
    array = numpy.asarray(image, dtype=numpy.float32)[:, :, ::-1]
    array = array - numpy.asarray(mean_bgr, numpy.float32)
    return array.transpose(2, 0, 1)


def oversample_crops(images, crop_dims):
    """Ten crops of each image of the batch ``images`` ``(N, C, H, W)``:
    the four corners and the center, then their mirror images; the crops
    of image i are rows ``10 i .. 10 i + 9``."""
    height, width = images.shape[2:]
    crop_h, crop_w = crop_dims
    top, left = (height - crop_h) // 2, (width - crop_w) // 2
    corners = [(0, 0), (0, width - crop_w), (height - crop_h, 0),
               (height - crop_h, width - crop_w), (top, left)]
    crops = [images[:, :, y:y + crop_h, x:x + crop_w] for y, x in corners]
    crops += [crop[:, :, :, ::-1] for crop in crops]
    return numpy.stack(crops, axis=1).reshape(
        (-1,) + images.shape[1:2] + tuple(crop_dims))


class ImageNetModel(link.Chain):
    """A pre-trained ImageNet classifier: subclasses build their layers in
    :meth:`_build` and list them in :attr:`functions`.

    Class attributes of subclasses: ``npz_name`` (the converted file
    ``pretrained_model='auto'`` looks for), ``source`` (where the original
    weights are published), ``mean_bgr`` (the mean pixel),
    ``default_feature`` (the layer :meth:`extract` returns by default).
    """

    npz_name = None
    source = None
    mean_bgr = None
    default_feature = None

    def __init__(self, pretrained_model, *build_args):
        path = self._weights_path(pretrained_model)
        super().__init__()
        with self.init_scope():
            self._build(path is not None, *build_args)
        if path is not None:
            _npz.load_npz(path, self)

    def _build(self, pretrained, *build_args):
        raise NotImplementedError(
            f'{type(self).__name__} must implement _build()')

    def _weights_path(self, pretrained_model):
        """The NPZ file to load (None: random weights); a clear error,
        before anything is built, when it does not exist."""
        name = type(self).__name__
        if not pretrained_model:
            return None
        if pretrained_model == 'auto':
            path = os.path.join(configuration.config.dataset_root,
                                MODELS_DIRECTORY, self.npz_name)
        else:
            path = os.fspath(pretrained_model)
        if not os.path.isfile(path):
            raise FileNotFoundError(
                f'{name}: the pre-trained weights {path} do not exist. '
                f'Kusari does not download them: get the original weights '
                f'from {self.source}, convert them to NPZ with '
                f'{name}.convert_caffemodel_to_npz, and place the file '
                f'at {path} (pretrained_model=\'auto\') or pass its path; '
                f'pretrained_model=None builds the model with random '
                f'weights')
        return path

    @property
    def functions(self):
        """Ordered dict: layer name -> the callables computing it from the
        previous layer's output."""
        raise NotImplementedError(
            f'{type(self).__name__} must define functions')

    @property
    def caffe_layers(self):
        """``{caffe layer name: (link path, kind)}``: where the layers of
        the published caffemodel go (see ``_caffemodel.transfer``)."""
        raise NotImplementedError(
            f'{type(self).__name__} must define caffe_layers')

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz):
        """Convert the published Caffe weights of this model (see
        :attr:`source`) into the NPZ file ``pretrained_model`` loads.

        Args:
            path_caffemodel (str): The ``.caffemodel`` file.
            path_npz (str): The NPZ file to write.
        """
        cls(pretrained_model=None)._convert_caffemodel(path_caffemodel,
                                                       path_npz)

    def _convert_caffemodel(self, path_caffemodel, path_npz):
        """Fill this model with the weights of the caffemodel file
        ``path_caffemodel`` and write them to the NPZ file ``path_npz``."""
        layers = _caffemodel.read_caffemodel(path_caffemodel)
        _caffemodel.transfer(layers, self, self.caffe_layers,
                             path_caffemodel)
        _npz.save_npz(path_npz, self)

    @property
    def available_layers(self):
        """The names of the layers whose outputs can be asked for."""
        return list(self.functions)

    @classmethod
    def prepare(cls, image, size=(224, 224)):
        """``image`` as an input array of the model (see
        :func:`prepare_image`)."""
        return prepare_image(image, size, cls.mean_bgr,
                             f'{cls.__name__}.prepare')

    def forward(self, x, layers=None):
        """The outputs of ``layers`` (default ``['prob']``) for the batch
        ``x`` ``(N, 3, H, W)``: a dict ``name -> Variable``. Only the
        layers up to the last one asked for are computed."""
        layers = ['prob'] if layers is None else list(layers)
        functions = self.functions
        unknown = [name for name in layers if name not in functions]
        if unknown:
            raise ValueError(
                f'{self._describe()}: unknown layers {unknown}; the '
                f'available layers are {list(functions)}')
        remaining = set(layers)
        outputs = {}
        h = x
        for name, funcs in functions.items():
            if not remaining:
                break
            for func in funcs:
                h = func(h)
            if name in remaining:
                outputs[name] = h
                remaining.remove(name)
        return outputs

    def _evaluate(self, x, layers):
        with configuration.using_config('train', False), \
                configuration.using_config('enable_backprop', False):
            return self.forward(Variable(self.xp.asarray(x)), layers)

    def extract(self, images, layers=None, size=(224, 224)):
        """Features of ``images`` (PIL images or arrays), in inference
        mode without a graph: a dict ``layer -> Variable``."""
        if layers is None:
            layers = [self.default_feature]
        x = numpy.stack([self.prepare(image, size) for image in images])
        return self._evaluate(x, layers)

    def predict(self, images, oversample=True):
        """Class probabilities ``(N, 1000)`` of ``images``, resized to
        256x256 and averaged over ten 224x224 crops (``oversample``) or
        taken from the center crop."""
        x = numpy.stack([self.prepare(image, (256, 256))
                         for image in images])
        if oversample:
            x = oversample_crops(x, (224, 224))
        else:
            x = x[:, :, 16:240, 16:240]
        y = self._evaluate(x, ['prob'])['prob']
        if oversample:
            y = sum_(reshape(y, (-1, 10) + y.shape[1:]), axis=1) / 10
        return y
