"""gaussian, gumbel_softmax, zoneout and simplified_dropconnect: their
draws checked statistically with a fixed seed (tolerances of five
standard errors of the sample size), and their options."""
import math
import types

import numpy
import pytest

from kusari.array import configuration
from kusari.autograd import functions as F
from kusari.autograd import function_node
from kusari.autograd.functions.noise import gaussian
from kusari.autograd.utils import type_check
from kusari.autograd.variable import Variable

from static_replays import check_replays

N = 20000


def test_gaussian_statistics():
    numpy.random.seed(0)
    mean = numpy.full(N, 1.5)
    ln_var = numpy.full(N, math.log(4.0))
    y = F.gaussian(mean, ln_var).array
    assert abs(y.mean() - 1.5) < 5 * 2 / math.sqrt(N)
    # The sample variance of a normal has standard error var * sqrt(2/N).
    assert abs(y.var() - 4) < 5 * 4 * math.sqrt(2 / N)


def test_gaussian_returns_its_noise_and_reuses_it():
    rs = numpy.random.RandomState(1)
    mean = Variable(rs.randn(3).astype(numpy.float32))
    ln_var = Variable(rs.randn(3).astype(numpy.float32))
    y, eps = F.gaussian(mean, ln_var, return_eps=True)
    numpy.testing.assert_allclose(
        y.array, mean.array + numpy.exp(ln_var.array / 2) * eps, rtol=1e-6)
    again = F.gaussian(mean, ln_var, eps=eps)
    numpy.testing.assert_array_equal(again.array, y.array)


def test_gaussian_float16_draws_float16():
    y, eps = F.gaussian(numpy.zeros(4, numpy.float16),
                        numpy.zeros(4, numpy.float16), return_eps=True)
    assert y.dtype == eps.dtype == numpy.float16


@pytest.mark.parametrize('size', [2, 4])
def test_gaussian_eps_shape_is_checked(size):
    with pytest.raises(type_check.InvalidType, match='eps.shape'):
        F.gaussian(numpy.zeros(3), numpy.zeros(3), eps=numpy.zeros(size))


def test_gaussian_draws_float16_in_float32_off_numpy():
    """CuPy's generators draw no float16: standard_normal asks them for
    float32 and casts (a stand-in for CuPy records the dtype asked)."""
    asked = []

    def draw(shape, dtype):
        asked.append(numpy.dtype(dtype))
        return numpy.zeros(shape, dtype)

    xp = types.SimpleNamespace(
        random=types.SimpleNamespace(standard_normal=draw))
    for dtype in (numpy.float16, numpy.float32, numpy.float64):
        assert gaussian.standard_normal(xp, (2,), dtype).dtype == dtype
    assert asked == [numpy.float32, numpy.float32, numpy.float64]


def test_gaussian_eps_and_return_eps_are_keyword_only():
    # As in Chainer, whose gaussian takes them as **kwargs.
    with pytest.raises(TypeError):
        F.gaussian(numpy.zeros(3), numpy.zeros(3), numpy.zeros(3))


@pytest.mark.parametrize('dtype', [bool, numpy.int32])
def test_gaussian_eps_must_be_float(dtype):
    with pytest.raises(type_check.InvalidType, match='eps.dtype'):
        F.gaussian(numpy.zeros(3), numpy.zeros(3), eps=numpy.ones(3, dtype))


def test_gumbel_softmax_frequencies_follow_the_probabilities():
    numpy.random.seed(2)
    probabilities = numpy.array([0.1, 0.2, 0.7])
    log_pi = numpy.tile(numpy.log(probabilities), (N, 1))
    y = F.gumbel_softmax(log_pi, tau=0.1).array
    numpy.testing.assert_allclose(y.sum(axis=1), 1, rtol=1e-12)
    counts = numpy.bincount(y.argmax(axis=1), minlength=3) / N
    for p, frequency in zip(probabilities, counts):
        assert abs(frequency - p) < 5 * math.sqrt(p * (1 - p) / N)


def test_gumbel_softmax_of_a_single_category_is_one():
    y = F.gumbel_softmax(numpy.asarray(-0.3, numpy.float32))
    assert y.shape == () and y.dtype == numpy.float32
    assert float(y.array) == 1.0


def test_gumbel_softmax_axis_and_gradient():
    numpy.random.seed(3)
    log_pi = Variable(numpy.random.randn(3, 2, 4))
    y = F.gumbel_softmax(log_pi, tau=2.0, axis=2)
    numpy.testing.assert_allclose(y.array.sum(axis=2), 1, rtol=1e-12)
    gx, = function_node.grad([F.sum(y)], [log_pi])
    numpy.testing.assert_allclose(gx.array, 0, atol=1e-12)


@pytest.mark.parametrize('tau', [0, -1.0])
def test_gumbel_softmax_tau_must_be_positive(tau):
    with pytest.raises(ValueError, match='tau'):
        F.gumbel_softmax(numpy.zeros((2, 3)), tau=tau)


def test_zoneout_fraction_and_gradients():
    numpy.random.seed(4)
    h = Variable(numpy.zeros(N))
    x = Variable(numpy.ones(N))
    y = F.zoneout(h, x, ratio=0.3)
    kept_h = float((y.array == 0).mean())
    assert abs(kept_h - 0.3) < 5 * math.sqrt(0.3 * 0.7 / N)
    y.grad = numpy.ones(N)
    y.backward()
    numpy.testing.assert_array_equal(h.grad + x.grad, numpy.ones(N))
    numpy.testing.assert_array_equal(x.grad, y.array)


def test_zoneout_test_mode_gives_x():
    x = numpy.ones(3)
    with configuration.using_config('train', False):
        assert F.zoneout(numpy.zeros(3), x).array is x


def test_zoneout_checks():
    with pytest.raises(type_check.InvalidType, match='x.shape'):
        F.zoneout(numpy.zeros(3), numpy.zeros(4))
    with pytest.raises(ValueError, match='using_config'):
        F.zoneout(numpy.zeros(3), numpy.zeros(3), train=True)


@pytest.mark.parametrize('ratio', [-0.1, 1.5])
def test_zoneout_ratio_out_of_range(ratio):
    with pytest.raises(ValueError, match=r'ratio must be in \[0, 1\]'):
        F.zoneout(numpy.zeros(3), numpy.ones(3), ratio)


@pytest.mark.parametrize('h, x', [
    # x shorter or longer than h, of a smaller or larger dtype, bool or
    # int: all rejected.
    (numpy.zeros(4), numpy.zeros(3)),
    (numpy.zeros(3), numpy.zeros(4)),
    (numpy.zeros(3), numpy.zeros(3, numpy.float32)),
    (numpy.zeros(3, numpy.float32), numpy.zeros(3)),
    (numpy.zeros(3, bool), numpy.zeros(3, bool)),
    (numpy.zeros(3, numpy.int32), numpy.zeros(3, numpy.int32)),
])
def test_zoneout_and_gaussian_check_their_pair(h, x):
    with pytest.raises(type_check.InvalidType):
        F.zoneout(h, x)
    with pytest.raises(type_check.InvalidType):
        F.gaussian(h, x)


@pytest.mark.parametrize('batchwise', [True, False])
def test_dropconnect_keeps_weights_at_the_rate_asked(batchwise):
    numpy.random.seed(5)
    n, in_size = 2000, 10
    x = numpy.ones((n, in_size))
    W = numpy.ones((1, in_size))
    y = F.simplified_dropconnect(x, W, ratio=0.25,
                                 use_batchwise_mask=batchwise).array
    kept = y / (1 / 0.75) / in_size
    if batchwise:
        assert abs(kept.mean() - 0.75) < 5 * math.sqrt(
            0.75 * 0.25 / (n * in_size))
    else:
        # One mask for the batch: every row sees the same weights.
        assert numpy.all(kept == kept[0])


def test_dropconnect_without_training_is_linear():
    rs = numpy.random.RandomState(6)
    x, W, b = rs.randn(4, 3, 2), rs.randn(5, 6), rs.randn(5)
    y = F.simplified_dropconnect(x, W, b, train=False).array
    numpy.testing.assert_allclose(y, x.reshape(4, 6) @ W.T + b, rtol=1e-12)


def test_dropconnect_argument_errors():
    x = numpy.ones((2, 3))
    for columns in (2, 5):
        with pytest.raises(ValueError, match=f'3 features per sample but W '
                                             f'has {columns} columns'):
            F.simplified_dropconnect(x, numpy.ones((4, columns)))
    with pytest.raises(ValueError, match='mask must be of shape'):
        F.simplified_dropconnect(x, numpy.ones((4, 3)),
                                 mask=numpy.ones((4, 3)))
    with pytest.raises(ValueError, match='ratio'):
        F.simplified_dropconnect(x, numpy.ones((4, 3)), ratio=1.0)


@pytest.mark.parametrize('x_shape, W_shape', [((3,), (4, 3)),
                                              ((2, 3), (4, 3, 1)),
                                              ((2, 3), (3,))])
def test_dropconnect_rejects_x_of_one_axis_and_W_of_three(x_shape, W_shape):
    # (and a W of one axis)
    with pytest.raises(ValueError, match='2 or more axes'):
        F.simplified_dropconnect(numpy.ones(x_shape), numpy.ones(W_shape))


@pytest.mark.parametrize('x_dtype, W_dtype', [(numpy.int32, numpy.float32),
                                              (numpy.float32, numpy.int32),
                                              (bool, numpy.float32),
                                              (numpy.float32, bool)])
def test_dropconnect_rejects_integers_and_bools(x_dtype, W_dtype):
    with pytest.raises(TypeError, match='must be float'):
        F.simplified_dropconnect(numpy.ones((2, 3), x_dtype),
                                 numpy.ones((4, 3), W_dtype))


@pytest.mark.parametrize('dtype, b', [
    # Shorter or longer than W's rows, of a smaller or a larger dtype
    # than x.
    (numpy.float64, numpy.ones(3)),
    (numpy.float64, numpy.ones(5)),
    (numpy.float64, numpy.ones(4, numpy.float32)),
    (numpy.float32, numpy.ones(4)),
])
def test_dropconnect_checks_the_bias(dtype, b):
    with pytest.raises(ValueError, match=r'b must be of shape \(4,\) and'):
        F.simplified_dropconnect(numpy.ones((2, 3), dtype),
                                 numpy.ones((4, 3), dtype), b)


def test_dropconnect_mask_of_the_batch():
    x, W = numpy.ones((2, 3)), numpy.ones((4, 3))
    with pytest.raises(ValueError, match=r'mask must be of shape \(4, 3\)'):
        F.simplified_dropconnect(x, W, mask=numpy.ones((2, 4, 3)),
                                 use_batchwise_mask=False)


@pytest.mark.parametrize('func, arrays', [
    (F.gumbel_softmax, lambda rng: (rng.uniform(-2, 0, (3, 4)),)),
    (lambda x, W: F.simplified_dropconnect(x, W, ratio=0.5),
     lambda rng: (rng.uniform(-1, 1, (3, 4)), rng.uniform(-1, 1, (2, 4)))),
    (lambda x, W, mask: F.simplified_dropconnect(x, W, mask=mask),
     lambda rng: (rng.uniform(-1, 1, (3, 4)), rng.uniform(-1, 1, (2, 4)),
                  rng.randint(0, 2, (3, 2, 4))))])
def test_draws_in_a_static_chain_are_made_anew_on_replays(func, arrays):
    rng = numpy.random.RandomState(0)
    check_replays(func, [arrays(rng) for _ in range(4)],
                  before_call=numpy.random.seed)
