"""The connection layers in models: the "Links" and "Creating Models"
examples of the guide through ``import chainer``, serialization, devices
and copies."""
import numpy
import pytest

from kusari.array import backend
from kusari.autograd import functions as F
from kusari.links import Chain
from kusari.links import layers as L
from kusari.serializers import DictionarySerializer
from kusari.serializers import NpzDeserializer
from kusari.serializers import load_npz
from kusari.serializers import save_npz


class ConvNet(Chain):
    """Convolution2D and Linear, both lazy."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(None, 4, 3, pad=1)
            self.fc = L.Linear(None, 2)

    def forward(self, x):
        return self.fc(F.relu(self.conv(x)))


def _x():
    return numpy.random.uniform(-1, 1, (2, 3, 4, 4)).astype(numpy.float32)


def test_npz_round_trip_of_linear_and_convolution(tmp_path):
    model = ConvNet()
    x = _x()
    expected = model(x).array
    path = tmp_path / 'model.npz'
    save_npz(path, model)
    with numpy.load(path) as stored:
        assert sorted(stored.files) == [
            'conv/W', 'conv/b', 'fc/W', 'fc/b']
        assert stored['conv/W'].shape == (4, 3, 3, 3)
    loaded = ConvNet()
    assert loaded.conv.W.array is None
    load_npz(path, loaded)
    assert loaded.conv.W.shape == (4, 3, 3, 3)
    assert loaded.fc.W.shape == (2, 64)
    numpy.testing.assert_array_equal(loaded(x).array, expected)


def test_serializer_protocol_round_trip():
    model = ConvNet()
    model(_x())
    target = {}
    DictionarySerializer(target).save(model)
    other = ConvNet()
    other(_x())
    NpzDeserializer(target).load(other)
    for (name, a), (_, b) in zip(sorted(model.namedparams()),
                                 sorted(other.namedparams())):
        numpy.testing.assert_array_equal(a.array, b.array, err_msg=name)


def test_loading_a_mismatched_shape_fails(tmp_path):
    save_npz(tmp_path / 'conv.npz', L.Convolution2D(3, 4, 3))
    with pytest.raises(ValueError, match='W'):
        load_npz(tmp_path / 'conv.npz', L.Convolution2D(2, 4, 3))


def test_to_device_cpu_keeps_lazy_parameters_working():
    model = ConvNet()
    assert model.to_device('@numpy') is model
    assert model.device == backend.CpuDevice()
    model.to_cpu()
    y = model(_x())
    assert isinstance(y.array, numpy.ndarray)
    assert all(isinstance(p.array, numpy.ndarray) for p in model.params())


def test_copies_share_or_copy_the_arrays():
    model = ConvNet()
    model(_x())
    shared = model.copy('share')
    assert shared.conv.W.array is model.conv.W.array
    copied = model.copy('copy')
    assert copied.conv.W.array is not model.conv.W.array
    numpy.testing.assert_array_equal(copied.fc.W.array, model.fc.W.array)
    assert copied.conv.stride == (1, 1) and copied.fc.out_size == 2


@pytest.mark.gpu
def test_to_gpu_moves_parameters_and_lazy_initialization():
    cupy = pytest.importorskip('cupy')
    model = ConvNet().to_gpu()
    y = model(cupy.asarray(_x()))
    assert isinstance(y.array, cupy.ndarray)
    assert isinstance(model.conv.W.array, cupy.ndarray)
