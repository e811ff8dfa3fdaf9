"""Normalization layers: forward and gradients against NumPy, running
statistics over several calls, train/test behaviour, lazy sizes, and a
bit-exact serialization round trip of a Chain with BatchNormalization."""
import re

import numpy
import pytest

from kusari.array import configuration
from kusari.autograd import testing as autograd_testing
from kusari.links import Chain
from kusari.links import layers as L
from kusari.serializers import load_npz
from kusari.serializers import save_npz

import connection_reference as ref

BACKENDS = [{}, {'use_cuda': True}]


def _standardize(x, axes, eps):
    x = x.astype(numpy.float64)
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return (x - mean) / numpy.sqrt(var + eps)


class _NormalizationTest(ref.ConnectionLinkTest):
    param_names = ('gamma', 'beta')

    def before_test(self, test_name):
        super().before_test(test_name)
        self.check_backward_options = {'atol': 5e-3, 'rtol': 5e-3}

    def generate_params(self):
        return ref.uniform(*self.param_shape), ref.uniform(*self.param_shape)

    def generate_inputs(self):
        return ref.uniform(*self.x_shape),


@autograd_testing.parameterize(
    {'x_shape': (5, 3), 'param_shape': (3,)},
    {'x_shape': (4, 3, 2, 2), 'param_shape': (3,)})
@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestBatchNormalizationTrain(_NormalizationTest):

    def create_link(self, initializers):
        gamma, beta = initializers
        return L.BatchNormalization(self.param_shape, initial_gamma=gamma,
                                    initial_beta=beta)

    def forward_expected(self, link, inputs):
        x, = inputs
        axes = (0,) + tuple(range(2, x.ndim))
        shape = (1, -1) + (1,) * (x.ndim - 2)
        y = _standardize(x, axes, link.eps) * \
            link.gamma.array.reshape(shape) + link.beta.array.reshape(shape)
        return y.astype(numpy.float32),


@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestBatchNormalizationTest(_NormalizationTest):
    x_shape = (4, 3, 2)
    param_shape = (3,)

    def create_link(self, initializers):
        gamma, beta = initializers
        link = L.BatchNormalization(3, initial_gamma=gamma,
                                    initial_beta=beta)
        link.avg_mean[...] = ref.uniform(3)
        link.avg_var[...] = numpy.random.uniform(0.5, 1.5, 3)
        return link

    def forward(self, link, inputs, device):
        with configuration.using_config('train', False):
            return link(*inputs),

    def forward_expected(self, link, inputs):
        x, = inputs
        shape = (1, 3, 1)
        y = (x - link.avg_mean.reshape(shape)) / numpy.sqrt(
            link.avg_var.reshape(shape) + link.eps)
        y = y * link.gamma.array.reshape(shape) + \
            link.beta.array.reshape(shape)
        return y.astype(numpy.float32),


@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestGroupNormalization(_NormalizationTest):
    x_shape = (3, 4, 2, 3)
    param_shape = (4,)

    def create_link(self, initializers):
        gamma, beta = initializers
        return L.GroupNormalization(2, initial_gamma=gamma,
                                    initial_beta=beta)

    def forward_expected(self, link, inputs):
        x, = inputs
        grouped = x.reshape(3, 2, -1)
        y = _standardize(grouped, (2,), link.eps).reshape(x.shape)
        shape = (1, 4, 1, 1)
        y = y * link.gamma.array.reshape(shape) + \
            link.beta.array.reshape(shape)
        return y.astype(numpy.float32),


@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestLayerNormalization(_NormalizationTest):
    x_shape = (4, 5)
    param_shape = (5,)

    def create_link(self, initializers):
        gamma, beta = initializers
        return L.LayerNormalization(initial_gamma=gamma, initial_beta=beta)

    def forward_expected(self, link, inputs):
        x, = inputs
        y = _standardize(x, (1,), link.eps) * link.gamma.array + \
            link.beta.array
        return y.astype(numpy.float32),


def _numpy_running_statistics(xs, decay, finetune=False):
    """The running mean and unbiased variance after the batches xs."""
    mean, var = numpy.zeros(3), numpy.ones(3)
    for n, x in enumerate(xs, start=1):
        d = 1 - 1 / n if finetune else decay
        axes = (0, 2)
        m = x.shape[0] * x.shape[2]
        mean = d * mean + (1 - d) * x.mean(axis=axes)
        var = d * var + (1 - d) * x.var(axis=axes) * m / (m - 1)
    return mean, var


@pytest.mark.parametrize('finetune', [False, True])
def test_batch_normalization_running_statistics(finetune):
    link = L.BatchNormalization(3, decay=0.8, dtype=numpy.float64)
    xs = [numpy.random.randn(4, 3, 5) * (k + 1) + k for k in range(4)]
    for x in xs:
        link(x, finetune=finetune)
    mean, var = _numpy_running_statistics(xs, 0.8, finetune)
    numpy.testing.assert_allclose(link.avg_mean, mean, rtol=1e-12)
    numpy.testing.assert_allclose(link.avg_var, var, rtol=1e-12)
    assert link.N == (4 if finetune else 0)
    link.start_finetuning()
    assert link.N == 0


def test_batch_normalization_test_mode_keeps_statistics():
    link = L.BatchNormalization(3)
    link(numpy.random.randn(4, 3).astype(numpy.float32))
    mean, var = link.avg_mean.copy(), link.avg_var.copy()
    with configuration.using_config('train', False):
        x = numpy.random.randn(2, 3).astype(numpy.float32)
        y = link(x).array
    numpy.testing.assert_array_equal(link.avg_mean, mean)
    numpy.testing.assert_array_equal(link.avg_var, var)
    expected = (x - mean) / numpy.sqrt(var + link.eps)
    numpy.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)


def test_batch_normalization_options():
    link = L.BatchNormalization(axis=(0, 2), use_gamma=False,
                                initial_beta=2, initial_avg_var=3)
    assert link.gamma is None and link.avg_mean is None
    y = link(numpy.random.randn(4, 3, 5).astype(numpy.float32))
    assert link.beta.shape == (3,) and link.avg_var[0] != 1
    numpy.testing.assert_allclose(y.array.mean(axis=(0, 2)), 2, atol=1e-5)
    assert [name for name, _ in link.namedparams()] == ['/beta']
    with pytest.raises(RuntimeError, match='size or axis'):
        L.BatchNormalization()
    with pytest.raises(ValueError, match='test argument'):
        link(numpy.zeros((2, 3, 5), numpy.float32), test=True)


def test_batch_normalization_rejects_unknown_keywords():
    link = L.BatchNormalization(3)
    with pytest.raises(TypeError, match='unexpected keyword arguments '
                                        'decay, train'):
        link(numpy.zeros((2, 3), numpy.float32), train=True, decay=0.5)


@pytest.mark.parametrize('axis, shape', [
    ((0, 3), (2, 3, 4)), ((-4,), (2, 3, 4)), (0, ()),
])
def test_lazy_batch_normalization_rejects_axes_outside_x(axis, shape):
    link = L.BatchNormalization(axis=axis)
    with pytest.raises(ValueError, match='cannot infer size from x of '
                                         rf'shape {re.escape(str(shape))}'):
        link(numpy.zeros(shape, numpy.float32))
    assert link.avg_mean is None


@pytest.mark.parametrize('axis, size', [((2,), (2, 3)), ((-3,), (3, 4)),
                                        ((0, -1), (3,))])
def test_lazy_batch_normalization_axes_at_the_bounds(axis, size):
    link = L.BatchNormalization(axis=axis)
    link(numpy.ones((2, 3, 4), numpy.float32))
    assert link.avg_mean.shape == size


def test_batch_normalization_dtype():
    link = L.BatchNormalization(3, dtype=numpy.float64)
    assert link.gamma.dtype == numpy.float64
    assert link.avg_mean.dtype == numpy.float64
    mixed = L.BatchNormalization(3, dtype=configuration.mixed16)
    assert mixed.gamma.dtype == numpy.float32


def test_group_normalization_dtype_is_fixed_at_construction():
    # As in Chainer: the configured dtype when the link is built (float32
    # for mixed16), whatever the config when it is shaped.
    with configuration.using_config('dtype', configuration.mixed16):
        group = L.GroupNormalization(1)
    initial = numpy.array([0.3, -0.7, 1.1], numpy.float32)
    with configuration.using_config('dtype', numpy.float16):
        lazy = L.GroupNormalization(1, initial_gamma=initial)
    x = numpy.zeros((1, 3, 2), numpy.float16)
    with configuration.using_config('dtype', numpy.float64):
        group(x)
        lazy(x)
    assert group.gamma.dtype == group.beta.dtype == numpy.float32
    assert lazy.gamma.dtype == numpy.float16
    # LayerNormalization, as Chainer's, takes the dtype when shaped.
    layer = L.LayerNormalization()
    with configuration.using_config('dtype', numpy.float64):
        layer(numpy.zeros((2, 3)))
    assert layer.gamma.dtype == numpy.float64


def test_group_normalization_checks_groups_when_called():
    link = L.GroupNormalization(3.5)
    with pytest.raises(TypeError, match='groups must be an int'):
        link(numpy.zeros((2, 6, 2), numpy.float32))
    with pytest.raises(ValueError, match='do not divide into 4 groups'):
        L.GroupNormalization(4)(numpy.zeros((2, 6, 2), numpy.float32))


def test_batch_normalization_text_as_chainer():
    assert str(L.BatchNormalization(3)) == (
        'BatchNormalization(size=3, decay=0.9, eps=2e-05, dtype=float32, '
        'use_gamma=True, use_beta=True)')
    text = str(L.BatchNormalization((2, 3), use_beta=False,
                                    dtype=numpy.float64))
    assert 'size=(2, 3)' in text and 'dtype=float64' in text
    assert 'use_beta=False' in text


def test_batch_renormalization():
    link = L.BatchRenormalization(3, rmax=1, dmax=0, decay=0.5)
    reference = L.BatchNormalization(3, decay=0.5)
    x = numpy.random.randn(6, 3).astype(numpy.float32)
    # rmax=1 and dmax=0 make it batch normalization.
    numpy.testing.assert_allclose(link(x).array, reference(x).array,
                                  rtol=1e-5, atol=1e-5)
    numpy.testing.assert_allclose(link.avg_var, reference.avg_var,
                                  rtol=1e-6)
    frozen = L.BatchRenormalization(3, rmax=3, dmax=2,
                                    freeze_running_statistics=True)
    frozen(x)
    numpy.testing.assert_array_equal(frozen.avg_mean, numpy.zeros(3))


@pytest.mark.parametrize('finetune', [False, True])
def test_batch_renormalization_under_forget(finetune):
    """F.forget recomputes the layer in backward: the recomputation sees
    the running statistics the first pass saw (r and d depend on them),
    and they are updated once."""
    from kusari.autograd import Variable
    from kusari.autograd import functions as F

    x = numpy.random.RandomState(0).uniform(-1, 1, (4, 3)).astype('f')
    gy = numpy.random.RandomState(1).uniform(-1, 1, (4, 3)).astype('f')
    grads, stats = [], []
    for forget in (False, True):
        link = L.BatchRenormalization(3, rmax=2.0, dmax=1.0)
        link.avg_mean[...] = 0.3
        xv = Variable(x)
        y = F.forget(lambda v: link(v, finetune=finetune), xv) if forget \
            else link(xv, finetune=finetune)
        y.grad = gy
        y.backward()
        grads.append(xv.grad)
        stats.append((link.avg_mean.copy(), link.avg_var.copy(), link.N))
    numpy.testing.assert_allclose(grads[1], grads[0], rtol=1e-6)
    for a, b in zip(*stats):
        numpy.testing.assert_array_equal(a, b)


def test_decorrelated_batch_normalization_whitens():
    link = L.DecorrelatedBatchNormalization(4, groups=2, eps=1e-9)
    mixing = numpy.random.randn(4, 4)
    x = numpy.random.randn(500, 4) @ mixing + 3
    y = link(x.astype(numpy.float32)).array.astype(numpy.float64)
    for g in range(2):
        block = y[:, 2 * g:2 * g + 2]
        numpy.testing.assert_allclose(numpy.cov(block.T, bias=True),
                                      numpy.eye(2), atol=1e-3)
    assert not numpy.allclose(link.avg_mean, 0)
    with configuration.using_config('train', False):
        link.avg_mean[...] = 0
        link.avg_projection[...] = numpy.eye(2)
        numpy.testing.assert_allclose(link(x.astype(numpy.float32)).array,
                                      x, rtol=1e-5)


def test_lazy_sizes_and_bad_input():
    group = L.GroupNormalization(2)
    with pytest.raises(ValueError, match='at least 2 axes'):
        group(numpy.zeros(4, numpy.float32))
    assert group.gamma.array is None
    # (batch, channel) is enough, as in Chainer 7.8.1: each group is
    # standardized over its channels alone.
    x = numpy.array([[1, 3, 0, 4]], numpy.float32)
    numpy.testing.assert_allclose(group(x).array, [[-1, 1, -1, 1]],
                                  rtol=1e-4)
    assert group.gamma.shape == (4,)
    layer = L.LayerNormalization()
    with pytest.raises(TypeError, match='expected 2 axes'):
        # Chainer's InvalidType, a TypeError.
        layer(numpy.zeros((2, 4, 1), numpy.float32))
    with pytest.raises(ValueError, match='groups=3 does not divide'):
        L.DecorrelatedBatchNormalization(4, groups=3)


class _Net(Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(2, 3, 3, pad=1)
            self.bn = L.BatchNormalization(3)
            self.fc = L.Linear(None, 4)

    def forward(self, x):
        return self.fc(self.bn(self.conv(x)))


def test_serialization_round_trip_is_bit_exact(tmp_path):
    trained = _Net()
    for _ in range(3):
        trained(numpy.random.randn(5, 2, 4, 4).astype(numpy.float32))
    trained.bn.N = 7
    save_npz(tmp_path / 'net.npz', trained)
    loaded = _Net()
    load_npz(tmp_path / 'net.npz', loaded)
    original = dict(trained.namedparams())
    for path, param in loaded.namedparams():
        numpy.testing.assert_array_equal(param.array, original[path].array)
    for name in ('avg_mean', 'avg_var'):
        assert getattr(loaded.bn, name).tobytes() == \
            getattr(trained.bn, name).tobytes()
    assert loaded.bn.N == 7
    x = numpy.random.randn(2, 2, 4, 4).astype(numpy.float32)
    with configuration.using_config('train', False):
        numpy.testing.assert_array_equal(loaded(x).array, trained(x).array)


def test_load_into_lazy_batch_normalization(tmp_path):
    trained = L.BatchNormalization(axis=0)
    trained(numpy.random.randn(4, 3).astype(numpy.float32))
    save_npz(tmp_path / 'bn.npz', trained)
    lazy = L.BatchNormalization(axis=0)
    load_npz(tmp_path / 'bn.npz', lazy)
    numpy.testing.assert_array_equal(lazy.avg_var, trained.avg_var)
    numpy.testing.assert_array_equal(lazy.gamma.array, trained.gamma.array)


def test_batch_renormalization_dtype_and_initial_statistics():
    # As in Chainer 7.8.1: dtype None follows the configured dtype, and
    # the running statistics can be given (positionally after beta).
    with configuration.using_config('dtype', numpy.float64):
        link = L.BatchRenormalization(3)
    assert link.gamma.dtype == link.avg_var.dtype == numpy.float64
    given = L.BatchRenormalization(3, 1, 0, 0.9, 2e-5, None, True, True,
                                   None, None, 2.0, 3.0)
    numpy.testing.assert_array_equal(given.avg_mean, numpy.full(3, 2.0))
    numpy.testing.assert_array_equal(given.avg_var, numpy.full(3, 3.0))
