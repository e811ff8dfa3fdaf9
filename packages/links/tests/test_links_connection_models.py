"""The connection layers in models: the "Links" and "Creating Models"
examples of the guide through ``import chainer``, serialization, devices
and copies."""
import numpy
import pytest

from kusari.array import backend
from kusari.autograd import functions as F
from kusari.links import Chain
from kusari.links import links as L
from kusari.serializers import DictionarySerializer
from kusari.serializers import NpzDeserializer
from kusari.serializers import load_npz
from kusari.serializers import save_npz


@pytest.fixture
def chainer():
    import chainer
    return chainer


def test_links_guide_example(chainer):
    import chainer.links as L
    f = L.Linear(3, 2)
    assert f.W.shape == (2, 3) and f.W.dtype == numpy.float32
    numpy.testing.assert_array_equal(f.b.array, [0., 0.])
    x = chainer.Variable(numpy.array([[1, 2, 3], [4, 5, 6]], numpy.float32))
    y = f(x)
    numpy.testing.assert_allclose(
        y.array, x.array @ f.W.array.T, rtol=1e-6)
    f.cleargrads()
    y.grad = numpy.ones((2, 2), dtype=numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(f.W.grad, [[5, 7, 9], [5, 7, 9]])
    numpy.testing.assert_array_equal(f.b.grad, [2, 2])
    lazy = L.Linear(2)
    assert lazy.W.array is None
    lazy(numpy.zeros((2, 7), numpy.float32))
    assert lazy.W.shape == (2, 7)


def test_creating_models_guide_example(chainer):
    import chainer.links as L
    from chainer import Chain, ChainList
    l1, l2 = L.Linear(4, 3), L.Linear(3, 2)

    def my_forward(x):
        return l2(l1(x))

    class MyChain(Chain):
        def __init__(self):
            super(MyChain, self).__init__()
            with self.init_scope():
                self.l1 = L.Linear(4, 3)
                self.l2 = L.Linear(3, 2)

        def forward(self, x):
            h = self.l1(x)
            return self.l2(h)

    class MyChain2(ChainList):
        def __init__(self):
            super(MyChain2, self).__init__(
                L.Linear(4, 3),
                L.Linear(3, 2),
            )

        def forward(self, x):
            h = self[0](x)
            return self[1](h)

    x = numpy.random.uniform(-1, 1, (5, 4)).astype(numpy.float32)
    assert my_forward(x).shape == (5, 2)
    chain, chain_list = MyChain(), MyChain2()
    assert sorted(name for name, _ in chain.namedparams()) == [
        '/l1/W', '/l1/b', '/l2/W', '/l2/b']
    assert sorted(name for name, _ in chain_list.namedparams()) == [
        '/0/W', '/0/b', '/1/W', '/1/b']
    chain_list.copyparams(MyChain2())
    for model in (chain, chain_list):
        y = model(x)
        assert y.shape == (5, 2)
        model.cleargrads()
        chainer.functions.sum(y).backward()
        assert all(param.grad is not None for param in model.params())


def test_chainer_links_paths_are_the_kusari_modules(chainer):
    import chainer.links as L
    from chainer.links.connection import convolution_2d, linear
    from kusari.links.links.connection import linear as kusari_linear
    assert linear is kusari_linear
    assert L.Linear is linear.Linear
    assert L.Convolution2D is convolution_2d.Convolution2D


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
