"""Whole models export and run in onnxruntime to Kusari's forward."""
import numpy
import pytest

from kusari.autograd import functions as F
from kusari.links import Chain
from kusari.links import Sequential
from kusari.links import layers as L
from kusari.onnx.testing import runtime

pytest.importorskip('onnxruntime')


class MLP(Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, 20)
            self.l2 = L.Linear(20, 20)
            self.l3 = L.Linear(20, 5)

    def forward(self, x):
        h = F.relu(self.l1(x))
        return self.l3(F.dropout(F.relu(self.l2(h))))


def lenet():
    """The LeNet of bench/lenet.py, as a Sequential."""
    def pool(h):
        return F.max_pooling_2d(h, 2)

    return Sequential(
        L.Convolution2D(1, 20, 5), pool, L.Convolution2D(20, 50, 5), pool,
        L.Linear(50 * 4 * 4, 500), F.relu, L.Linear(500, 10))


class ConvBN(Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(3, 4, 3, pad=1)
            self.bn = L.BatchNormalization(4)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


class UnrolledLSTM(Chain):
    """Embedding, an LSTM run over a fixed number of steps, and a linear
    output per step."""

    def __init__(self, n_vocab=7, n_units=6):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units)
            self.lstm = L.LSTM(n_units, n_units)
            self.out = L.Linear(n_units, n_vocab)

    def forward(self, ids):
        self.lstm.reset_state()
        ys = [self.out(self.lstm(self.embed(ids[:, t])))
              for t in range(ids.shape[1])]
        return F.stack(ys, axis=1)


def test_mlp():
    x = numpy.random.default_rng(0).standard_normal((3, 8))
    runtime.check_export(MLP(), x.astype(numpy.float32))


def test_lenet():
    x = numpy.random.default_rng(1).standard_normal((2, 1, 28, 28))
    runtime.check_export(lenet(), x.astype(numpy.float32), rtol=1e-4,
                         atol=1e-5)


@pytest.mark.parametrize('train', [False, True])
def test_batch_normalization_link(train):
    model = ConvBN()
    rng = numpy.random.default_rng(2)
    model.bn.avg_mean[...] = rng.standard_normal(4)
    model.bn.avg_var[...] = rng.uniform(0.5, 2, 4)
    x = rng.standard_normal((2, 3, 5, 5)).astype(numpy.float32)
    onnx_model = runtime.check_export(model, x, rtol=1e-4, atol=1e-5,
                                      train=train)
    names = {t.name for t in onnx_model.graph.initializer}
    expected = {'param_conv_W', 'param_conv_b', 'param_bn_gamma',
                'param_bn_beta'}
    if not train:  # the running statistics are read in test mode only
        expected |= {'param_bn_avg_mean', 'param_bn_avg_var'}
    assert expected <= names


def test_unrolled_lstm():
    ids = numpy.array([[1, 3, 0, 6], [2, 2, 5, 4]], numpy.int32)
    onnx_model = runtime.check_export(UnrolledLSTM(), ids, rtol=1e-4,
                                      atol=1e-5)
    assert sum(n.op_type == 'Sigmoid' for n in onnx_model.graph.node) \
        == 3 * 4


class Prob(Chain):
    """A vision model whose forward gives the dict of its 'prob'
    layer."""

    def __init__(self, model):
        super().__init__()
        with self.init_scope():
            self.model = model

    def forward(self, x):
        return self.model(x, layers=['prob'])


def _check_vision_model(model, size):
    x = numpy.random.default_rng(3).uniform(
        -1, 1, (1, 3, size, size)).astype(numpy.float32)
    onnx_model = runtime.check_export(Prob(model), x, rtol=1e-3, atol=1e-4)
    assert [o.name for o in onnx_model.graph.output] == ['prob']


@pytest.mark.slow
def test_vgg16_layers():
    # Its fc6 takes the 7 x 7 maps of a 224 x 224 image.
    _check_vision_model(L.VGG16Layers(pretrained_model=None), 224)


def test_resnet50_layers():
    _check_vision_model(L.ResNet50Layers(pretrained_model=None), 64)


@pytest.mark.gpu
def test_model_on_gpu_exports_host_arrays():
    from kusari.array import backend
    device = backend.get_device('@cupy:0')
    model = ConvBN()
    model.to_device(device)
    x = numpy.random.default_rng(4).standard_normal((2, 3, 5, 5))
    # Opset 21: the GPU image's onnxruntime (1.30) runs no newer one.
    runtime.check_export(model, device.send(x.astype(numpy.float32)),
                         rtol=1e-4, atol=1e-5, opset_version=21)


class DivPadLog(Chain):
    """The issue's model: x / 3.0, F.pad and F.log around a linear
    layer."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.fc = L.Linear(6, 4)

    def forward(self, x):
        h = F.pad(x / 3.0, ((0, 0), (1, 1)), 'constant', constant_values=1)
        return F.log(F.softplus(self.fc(h)) + 1)


@pytest.mark.parametrize('opset_version', [7, 11, 13, 18, 28])
def test_division_by_a_constant_pad_and_log(opset_version):
    x = numpy.random.default_rng(5).standard_normal((3, 4))
    onnx_model = runtime.check_export(DivPadLog(), x.astype(numpy.float32),
                                      opset_version=opset_version)
    assert {'Div', 'Pad', 'Log'} <= {n.op_type for n in onnx_model.graph.node}


class Tagger(Chain):
    """NStep RNN links over sequences of different lengths (sorted,
    transposed and restored by the link), one output per sequence."""

    def __init__(self, rnn):
        super().__init__()
        with self.init_scope():
            self.rnn = rnn

    def forward(self, *xs):
        *states, ys = self.rnn(*(None,) * (len(self.rnn_states)), list(xs))
        return tuple(states) + tuple(ys)

    @property
    def rnn_states(self):
        return ('hx', 'cx') if isinstance(self.rnn, (
            L.NStepLSTM, L.NStepBiLSTM)) else ('hx',)


@pytest.mark.parametrize('opset_version', [7, 14, 28])
@pytest.mark.parametrize('rnn, op_type', [
    (lambda: L.NStepLSTM(2, 3, 4, 0.0), 'LSTM'),
    (lambda: L.NStepBiGRU(1, 3, 4, 0.0), 'GRU'),
    (lambda: L.NStepRNNReLU(1, 3, 4, 0.0), 'RNN'),
])
def test_n_step_links_export_onnx_recurrent_operators(rnn, op_type,
                                                      opset_version):
    rng = numpy.random.default_rng(6)
    xs = [rng.standard_normal((n, 3)).astype(numpy.float32)
          for n in (2, 4, 1)]
    onnx_model = runtime.check_export(Tagger(rnn()), xs, rtol=1e-4,
                                      atol=1e-5, opset_version=opset_version)
    op_types = [n.op_type for n in onnx_model.graph.node]
    assert op_type in op_types and 'Sigmoid' not in op_types
