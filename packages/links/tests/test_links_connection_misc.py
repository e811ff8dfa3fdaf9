"""Bias, Scale, Bilinear, EmbedID, Highway, Parameter, MLPConvolution2D,
Inception and InceptionBN against NumPy; the order in which the layers
draw their random initial values."""
import numpy
import pytest

from kusari.array import configuration
from kusari.array import initializers
from kusari.autograd import functions as F
from kusari.autograd import testing as autograd_testing
from kusari.links import layers as L

import connection_reference as ref

BACKENDS = [{}, {'use_cuda': True}]


@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestBias(ref.ConnectionLinkTest):
    param_names = ('b',)

    def generate_params(self):
        return ()

    def create_link(self, initializers):
        link = L.Bias(axis=1, shape=(3,))
        link.b.array[...] = ref.uniform(3)
        return link

    def generate_inputs(self):
        return ref.uniform(2, 3, 4),

    def forward_expected(self, link, inputs):
        x, = inputs
        return x + link.b.array[:, None],


@autograd_testing.parameterize({'bias_term': False}, {'bias_term': True})
@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestScale(ref.ConnectionLinkTest):

    def before_test(self, test_name):
        super().before_test(test_name)
        self.param_names = ('W',)

    def generate_params(self):
        return ()

    def create_link(self, initializers):
        link = L.Scale(axis=1, W_shape=(3, 4), bias_term=self.bias_term)
        link.W.array[...] = ref.uniform(3, 4)
        if self.bias_term:
            link.bias.b.array[...] = ref.uniform(3, 4)
        return link

    def generate_inputs(self):
        return ref.uniform(2, 3, 4),

    def forward_expected(self, link, inputs):
        x, = inputs
        y = x * link.W.array
        if self.bias_term:
            y = y + link.bias.b.array
        return y,


def test_bias_and_scale_with_a_second_input():
    x, y = ref.uniform(2, 3, 4), ref.uniform(4)
    numpy.testing.assert_allclose(L.Bias(axis=2)(x, y).array, x + y)
    scale = L.Scale(axis=2, bias_term=True, bias_shape=(4,))
    assert [name for name, _ in scale.namedparams()] == ['/bias/b']
    numpy.testing.assert_allclose(scale(x, y).array, x * y)


def test_bias_and_scale_without_parameter_need_two_inputs():
    # Chainer asserts the count (AssertionError in debug mode); the error
    # is a ValueError too.
    with pytest.raises(AssertionError, match='built without shape'):
        L.Bias()(ref.uniform(2, 3))
    with pytest.raises(ValueError, match='built without W_shape'):
        L.Scale()(ref.uniform(2, 3))


def test_bias_and_scale_with_parameter_refuse_a_second_input():
    x = ref.uniform(2, 3)
    with pytest.raises(AssertionError, match='it has the parameter b'):
        L.Bias(shape=(3,))(x, x[0])
    with pytest.raises(ValueError, match='it has the parameter W'):
        L.Scale(W_shape=(3,))(x, x[0])
    with pytest.raises(ValueError, match='bias_shape must be given'):
        L.Scale(bias_term=True)


@autograd_testing.parameterize({'nobias': False}, {'nobias': True})
@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestBilinear(ref.ConnectionLinkTest):

    def before_test(self, test_name):
        super().before_test(test_name)
        self.param_names = ('W',) if self.nobias else ('W', 'V1', 'V2', 'b')

    def generate_params(self):
        return (ref.uniform(3, 2, 4),
                (ref.uniform(3, 4), ref.uniform(2, 4), ref.uniform(4)))

    def create_link(self, initializers):
        initialW, initial_bias = initializers
        return L.Bilinear(3, 2, 4, self.nobias, initialW, initial_bias)

    def generate_inputs(self):
        return ref.uniform(5, 3), ref.uniform(5, 2)

    def forward_expected(self, link, inputs):
        e1, e2 = (x.astype(numpy.float64) for x in inputs)
        y = numpy.einsum('ni,nj,ijk->nk', e1, e2, link.W.array)
        if not self.nobias:
            y += e1 @ link.V1.array + e2 @ link.V2.array + link.b.array
        return y.astype(numpy.float32),


def test_bilinear_defaults():
    link = L.Bilinear(3, 2, 4)
    assert link.W.shape == (3, 2, 4) and link.V1.shape == (3, 4)
    assert link.V2.shape == (2, 4)
    numpy.testing.assert_array_equal(link.b.array, 0)
    assert 'V1' not in dict(L.Bilinear(3, 2, 4, nobias=True).namedparams())


@pytest.mark.parametrize('initial_bias', [(0, 0), (0, 0, 0, 0), ()])
def test_bilinear_takes_three_bias_initializers(initial_bias):
    with pytest.raises(ValueError, match=r'initial_bias must be \(V1, V2, '
                       rf'b\) initializers; got {len(initial_bias)} items'):
        L.Bilinear(3, 2, 4, initial_bias=initial_bias)


@autograd_testing.parameterize({'ignore_label': None}, {'ignore_label': 1})
@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestEmbedID(ref.ConnectionLinkTest):
    param_names = ('W',)

    def generate_params(self):
        return ref.uniform(4, 3),

    def create_link(self, initializers):
        initialW, = initializers
        return L.EmbedID(4, 3, initialW, self.ignore_label)

    def generate_inputs(self):
        return numpy.array([[0, 1, 3], [3, 2, 1]], numpy.int32),

    def forward(self, link, inputs, device):
        x, = inputs
        return link(x.array),

    def forward_expected(self, link, inputs):
        x, = inputs
        y = link.W.array[x]
        if self.ignore_label is not None:
            y[x == self.ignore_label] = 0
        return y,

    def test_backward(self, backend_config):
        # Only W has a gradient: check it with x held fixed.
        x = self.generate_inputs()[0]
        self.generate_inputs = lambda: ()
        self.forward = lambda link, inputs, device: (
            link(backend_config.get_array(x)),)
        super().test_backward(backend_config)


def test_embed_id_default_initializer_is_standard_normal():
    numpy.random.seed(0)
    W = L.EmbedID(2000, 10).W.array
    assert abs(W.std() - 1) < 0.05
    copy = L.EmbedID.from_params(W, ignore_label=-1)
    assert copy.ignore_label == -1 and copy.W.shape == (2000, 10)
    link = L.EmbedID(4, 3)
    copy = L.EmbedID.from_params(link.W)
    numpy.testing.assert_array_equal(copy.W.array, link.W.array)


@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestHighway(ref.ConnectionLinkTest):
    param_names = ()

    def generate_params(self):
        return ()

    def create_link(self, initializers):
        return L.Highway(3, activate=F.tanh)

    def generate_inputs(self):
        return ref.uniform(4, 3),

    def forward_expected(self, link, inputs):
        x, = inputs
        plain, transform = link.plain, link.transform
        h = numpy.tanh(x @ plain.W.array.T + plain.b.array)
        t = 1 / (1 + numpy.exp(-(x @ transform.W.array.T +
                                 transform.b.array)))
        return (h * t + x * (1 - t)).astype(numpy.float32),


def test_highway_gate_bias_defaults_to_minus_one():
    link = L.Highway(3)
    numpy.testing.assert_array_equal(link.transform.b.array, -1)
    numpy.testing.assert_array_equal(link.plain.b.array, 0)
    assert link.activate is F.relu
    assert L.Highway(3, nobias=True).plain.b is None


def test_parameter_link_returns_its_parameter():
    array = ref.uniform(2, 3)
    link = L.Parameter(array)
    assert link.W.array is array
    assert link() is link.W
    F.sum(link() * 2).backward()
    numpy.testing.assert_array_equal(link.W.grad, 2)
    assert [name for name, _ in link.namedparams()] == ['/W']
    with pytest.raises(TypeError, match='Parameter: expected a NumPy'):
        L.Parameter([1.0])


@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestMLPConvolution2D(ref.ConnectionLinkTest):
    param_names = ()

    def generate_params(self):
        return ()

    def create_link(self, initializers):
        return L.MLPConvolution2D((4, 3, 2), 2, pad=1, activation=F.tanh)

    def generate_inputs(self):
        return ref.uniform(1, 3, 3, 3),

    def forward_expected(self, link, inputs):
        x, = inputs
        for index, conv in enumerate(link):
            x = ref.convolution(x, conv.W.array, conv.b.array,
                                pad=conv.pad)
            if index < len(link) - 1:
                x = numpy.tanh(x)
        return x.astype(numpy.float32),


def test_mlp_convolution_layers():
    link = L.MLPConvolution2D(3, (5, 4), 3, stride=2, conv_init=0.5,
                              bias_init=1)
    assert [conv.W.shape for conv in link] == [(5, 3, 3, 3), (4, 5, 1, 1)]
    assert link[0].stride == (2, 2) and link[1].stride == (1, 1)
    numpy.testing.assert_array_equal(link[1].W.array, 0.5)
    numpy.testing.assert_array_equal(link[1].b.array, 1)
    with pytest.raises(TypeError, match='non-empty tuple'):
        L.MLPConvolution2D(3, (), 3)
    # Chainer v1's wscale: by keyword a ValueError saying what replaced
    # it; the 7th positional argument is conv_init, an initializer.
    with pytest.raises(ValueError, match='wscale is not supported anymore'):
        L.MLPConvolution2D(3, (5, 4), 3, wscale=1)
    with pytest.raises(TypeError, match='unexpected keyword'):
        L.MLPConvolution2D(3, (5, 4), 3, bias=1)


def _max_pool_3x3(x):
    x_pad = numpy.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1)],
                      constant_values=-numpy.inf)
    h, w = x.shape[2:]
    return numpy.max([x_pad[:, :, i:i + h, j:j + w]
                      for i in range(3) for j in range(3)], axis=0)


def test_inception_against_numpy():
    link = L.Inception(None, 2, 2, 3, 1, 2, 2)
    x = ref.uniform(2, 3, 5, 5)
    y = link(x).array

    def conv(name, h):
        c = getattr(link, name)
        return ref.convolution(h, c.W.array, c.b.array, pad=c.pad)

    expected = numpy.maximum(numpy.concatenate([
        conv('conv1', x),
        conv('conv3', numpy.maximum(conv('proj3', x), 0)),
        conv('conv5', numpy.maximum(conv('proj5', x), 0)),
        conv('projp', _max_pool_3x3(x))], axis=1), 0)
    assert y.shape == (2, 9, 5, 5)
    numpy.testing.assert_allclose(y, expected, atol=1e-5, rtol=1e-4)


@pytest.fixture
def batch_normalization():
    return pytest.importorskip(
        'kusari.links.layers.normalization.batch_normalization',
        reason='the BatchNormalization link is not written yet')


@pytest.mark.parametrize('pooltype, proj_pool, stride, out1', [
    ('max', 2, 1, 2), ('avg', None, 2, 0)])
def test_inception_bn_against_numpy(batch_normalization, pooltype,
                                    proj_pool, stride, out1):
    from kusari.links.layers.connection.inception_bn import InceptionBN
    link = InceptionBN(3, out1, 2, 3, 1, 2, pooltype, proj_pool, stride)
    x = ref.uniform(4, 3, 6, 6)
    with configuration.using_config('train', True):
        y = link(x).array

    def unit(name, h, conv_stride=1):
        c = link[name]
        h = ref.convolution(h, c.W.array, None, conv_stride, c.pad)
        mean = h.mean(axis=(0, 2, 3), keepdims=True)
        var = h.var(axis=(0, 2, 3), keepdims=True)
        return numpy.maximum((h - mean) / numpy.sqrt(var + 2e-5), 0)

    branches = [unit('conv1', x)] if out1 else []
    branches.append(unit('conv3', unit('proj3', x), stride))
    branches.append(unit('conv33b', unit('conv33a', unit('proj33', x)),
                         stride))
    if pooltype == 'max':
        pooled = _max_pool_3x3(x)[:, :, ::stride, ::stride]
    else:
        x_pad = numpy.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1)])
        pooled = numpy.mean([x_pad[:, :, i:i + 6:stride, j:j + 6:stride]
                             for i in range(3) for j in range(3)], axis=0)
    branches.append(unit('poolp', pooled) if proj_pool else pooled)
    expected = numpy.concatenate(branches, axis=1)
    assert y.shape == expected.shape
    numpy.testing.assert_allclose(y, expected, atol=1e-4, rtol=1e-3)


def test_inception_bn_rejects_bad_options(batch_normalization):
    from kusari.links.layers.connection import inception_bn
    # ValueErrors; and Chainer's types: NotImplementedError for the
    # pooltype, AssertionError for the architecture.
    with pytest.raises(ValueError, match="pooltype must be 'max' or 'avg'"):
        inception_bn.InceptionBN(3, 0, 2, 2, 2, 2, 'min')
    with pytest.raises(NotImplementedError):
        inception_bn.InceptionBN(3, 0, 2, 2, 2, 2, 'min')
    for stride, proj_pool in [(1, None), (2, 2)]:
        with pytest.raises(ValueError, match='needs stride=1 and proj_pool'):
            inception_bn.InceptionBN(3, 2, 2, 2, 2, 2, 'max', proj_pool,
                                     stride)
        with pytest.raises(AssertionError):
            inception_bn.InceptionBN(3, 2, 2, 2, 2, 2, 'max', proj_pool,
                                     stride)


def test_bilinear_default_weight_is_lecun_normal():
    # As Chainer 7.8.1: LeCun normal over the shape (left, right, out),
    # whose fan-in is right * out (here std 1/sqrt(1500), not 1/sqrt(1200)).
    numpy.random.seed(0)
    W = L.Bilinear(40, 30, 50, nobias=True).W.array
    assert abs(W.std() * numpy.sqrt(30 * 50) - 1) < 0.02


@pytest.mark.parametrize('make, w_shape', [
    (lambda **kw: L.Linear(3, 4, **kw), (4, 3)),
    (lambda **kw: L.SimplifiedDropconnect(3, 4, **kw), (4, 3)),
    (lambda **kw: L.Convolution2D(2, 4, 3, **kw), (4, 2, 3, 3)),
    (lambda **kw: L.Deconvolution2D(2, 4, 3, **kw), (2, 4, 3, 3)),
])
def test_w_is_drawn_before_a_random_bias(make, w_shape):
    # As in Chainer, so that one seed gives the same initial values.
    numpy.random.seed(0)
    link = make(initialW=initializers.Normal(1.0),
                initial_bias=initializers.Normal(1.0))
    numpy.random.seed(0)
    w = numpy.random.normal(0, 1.0, w_shape)
    b = numpy.random.normal(0, 1.0, (4,))
    numpy.testing.assert_allclose(link.W.array, w, rtol=1e-6)
    numpy.testing.assert_allclose(link.b.array, b, rtol=1e-6)
