"""Models: Classifier's module path, the pre-trained architectures with
random weights (layers, extract, predict, prepare), loading converted
weights from an NPZ file, and the errors of a missing or mismatched
file."""
import numpy
import pytest

from kusari.array import configuration
from kusari.links import Chain
from kusari.links import layers as L
from kusari.links.layers.model.vision import _imagenet
from kusari.links.layers.model.vision import _npz
from kusari.links.layers.model.vision import googlenet
from kusari.links.layers.model.vision import resnet
from kusari.links.layers.model.vision import vgg
from kusari.serializers import save_npz


@pytest.fixture(scope='module')
def googlenet_model():
    return L.GoogLeNet(pretrained_model=None)


def test_googlenet_layers(googlenet_model):
    model = googlenet_model
    assert model.available_layers[:3] == ['conv1', 'pool1', 'conv2_reduce']
    assert model.available_layers[-2:] == ['loss3_fc', 'prob']
    x = numpy.random.rand(1, 3, 64, 64).astype(numpy.float32)
    outputs = model(x, layers=['conv1', 'inception_3a'])
    assert outputs['conv1'].shape == (1, 64, 32, 32)
    assert outputs['inception_3a'].shape == (1, 256, 8, 8)
    with pytest.raises(ValueError, match='unknown layers'):
        model(x, layers=['fc7'])


def test_googlenet_predict_and_extract(googlenet_model):
    image = (numpy.random.rand(40, 50, 3) * 255).astype(numpy.uint8)
    probabilities = googlenet_model.predict([image], oversample=False)
    assert probabilities.shape == (1, 1000)
    assert float(probabilities.array.sum()) == pytest.approx(1, rel=1e-4)
    assert probabilities.creator is None
    features = googlenet_model.extract([image], layers=['pool2'],
                                       size=(64, 64))
    assert features['pool2'].shape == (1, 192, 8, 8)


def test_prepare_bgr_and_mean():
    image = numpy.zeros((4, 6, 3), numpy.uint8)
    image[..., 0] = 200  # red
    prepared = vgg.prepare(image, size=None)
    assert prepared.shape == (3, 4, 6) and prepared.dtype == numpy.float32
    numpy.testing.assert_allclose(prepared[:, 0, 0],
                                  [-103.939, -116.779, 200 - 123.68],
                                  rtol=1e-6)
    chw = googlenet.prepare(image.transpose(2, 0, 1), size=(8, 8))
    assert chw.shape == (3, 8, 8)
    assert resnet.prepare(image[..., 0]).shape == (3, 224, 224)


def test_available_says_whether_pillow_is_installed():
    import importlib.util
    has_pillow = importlib.util.find_spec('PIL') is not None
    assert vgg.available is resnet.available is googlenet.available \
        is has_pillow
    if not has_pillow:
        with pytest.raises(ImportError, match='needs Pillow'):
            vgg.prepare(numpy.zeros((4, 6, 3), numpy.uint8))


def test_oversample_crops():
    images = numpy.arange(2 * 1 * 4 * 4, dtype=numpy.float32).reshape(
        2, 1, 4, 4)
    crops = _imagenet.oversample_crops(images, (2, 2))
    assert crops.shape == (20, 1, 2, 2)
    numpy.testing.assert_array_equal(crops[0], images[0, :, :2, :2])
    numpy.testing.assert_array_equal(crops[4], images[0, :, 1:3, 1:3])
    numpy.testing.assert_array_equal(crops[5], images[0, :, :2, 1::-1])
    numpy.testing.assert_array_equal(crops[13], images[1, :, 2:, 2:])


def test_googlenet_loads_converted_weights(googlenet_model, tmp_path):
    path = tmp_path / 'googlenet.npz'
    save_npz(path, googlenet_model, compression=False)
    loaded = L.GoogLeNet(pretrained_model=str(path))
    theirs = dict(googlenet_model.namedparams())
    for name, param in loaded.namedparams():
        numpy.testing.assert_array_equal(param.array, theirs[name].array)


def test_missing_weights_tell_how_to_get_them(tmp_path):
    with configuration.using_config('dataset_root', str(tmp_path)):
        with pytest.raises(FileNotFoundError) as info:
            L.ResNet152Layers()
    message = str(info.value)
    assert 'ResNet-152-model.npz' in message and str(tmp_path) in message
    assert 'pretrained_model=None' in message
    with pytest.raises(FileNotFoundError, match='VGG16Layers'):
        L.VGG16Layers(pretrained_model=str(tmp_path / 'absent.npz'))


class _Small(Chain):
    def __init__(self, width=3):
        super().__init__()
        with self.init_scope():
            self.fc = L.Linear(2, width)
            self.bn = L.BatchNormalization(width)


def test_npz_loader_checks_before_changing(tmp_path):
    source = _Small()
    source.bn(numpy.random.randn(4, 3).astype(numpy.float32))
    source.bn.N = 3
    save_npz(tmp_path / 'small.npz', source)
    target = _Small()
    _npz.load_npz(tmp_path / 'small.npz', target)
    numpy.testing.assert_array_equal(target.bn.avg_var, source.bn.avg_var)
    numpy.testing.assert_array_equal(target.fc.W.array, source.fc.W.array)
    assert target.bn.N == 3
    wider = _Small(4)
    before = wider.fc.W.array.copy()
    with pytest.raises(ValueError, match=r'/bn/avg_mean.*\(3,\).*\(4,\)|'
                                         r'/bn/beta.*\(3,\).*\(4,\)'):
        _npz.load_npz(tmp_path / 'small.npz', wider)
    numpy.testing.assert_array_equal(wider.fc.W.array, before)


def test_resnet50_layers():
    model = L.ResNet50Layers(pretrained_model=None)
    assert isinstance(model.res2.a, resnet.BottleneckA)
    assert isinstance(model.res4.b5, resnet.BottleneckB)
    x = numpy.random.rand(1, 3, 32, 32).astype(numpy.float32)
    with configuration.using_config('train', False):
        outputs = model(x, layers=['pool1', 'res3'])
    assert outputs['pool1'].shape == (1, 64, 8, 8)
    assert outputs['res3'].shape == (1, 512, 4, 4)
    with pytest.raises(ValueError, match='50, 101 or 152'):
        resnet.ResNetLayers(None, 34)


@pytest.mark.slow
@pytest.mark.parametrize('cls, n_convs', [(L.VGG16Layers, 13),
                                          (L.VGG19Layers, 16)])
def test_vgg_layers(cls, n_convs):
    model = cls(pretrained_model=None)
    convs = [name for name in model.available_layers
             if name.startswith('conv')]
    assert len(convs) == n_convs
    x = numpy.random.rand(1, 3, 32, 32).astype(numpy.float32)
    assert model(x, layers=['pool5'])['pool5'].shape == (1, 512, 1, 1)


@pytest.mark.slow
@pytest.mark.parametrize('cls', [L.ResNet101Layers, L.ResNet152Layers])
def test_deep_resnets(cls):
    model = cls(pretrained_model=None)
    x = numpy.random.rand(1, 3, 32, 32).astype(numpy.float32)
    with configuration.using_config('train', False):
        assert model(x, layers=['pool5'])['pool5'].shape == (1, 2048)
