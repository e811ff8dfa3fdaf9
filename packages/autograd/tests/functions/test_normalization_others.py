"""Layer, group, local response, L2 and decorrelated batch normalization:
behaviour the conformance records cannot express."""
import warnings

import numpy
import pytest

from kusari.autograd import functions as F
from kusari.autograd import function_node
from kusari.autograd.functions.normalization import (
    decorrelated_batch_normalization as decorrelated)
from kusari.autograd.utils import type_check
from kusari.autograd.variable import Variable


def test_layer_normalization_needs_a_matrix():
    x = numpy.ones((2, 3, 4), numpy.float32)
    gamma = numpy.ones(3, numpy.float32)
    with pytest.raises(type_check.InvalidType, match='x.ndim == 2'):
        F.layer_normalization(x, gamma, gamma)


def test_layer_normalization_of_no_units():
    # Statistics over no value: the gradient of the rows is empty, and
    # computed without a 0 / 0 (no RuntimeWarning).
    x = Variable(numpy.zeros((3, 0)))
    params = [Variable(numpy.zeros(0)) for _ in range(2)]
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        y = F.layer_normalization(x, *params)
        y.grad = numpy.ones_like(y.array)
        y.backward()
    assert y.shape == (3, 0) and x.grad.shape == (3, 0)


def test_layer_normalization_standardizes_rows():
    x = numpy.random.RandomState(0).randn(3, 50) * 5 + 2
    y = F.layer_normalization(x, numpy.ones(50), numpy.zeros(50)).array
    numpy.testing.assert_allclose(y.mean(axis=1), 0, atol=1e-12)
    numpy.testing.assert_allclose(y.std(axis=1), 1, atol=1e-5)


@pytest.mark.parametrize('groups, error, match', [
    (4, ValueError, 'the 6 channels of x do not divide into 4 groups'),
    (0, ValueError, 'positive'),
    (1.5, TypeError, 'int'),
])
def test_group_normalization_bad_groups(groups, error, match):
    x = numpy.ones((2, 6, 3), numpy.float32)
    gamma = numpy.ones(6, numpy.float32)
    with pytest.raises(error, match=match):
        F.group_normalization(x, groups, gamma, gamma)


def test_group_normalization_needs_a_channel_axis():
    gamma = numpy.ones(6, numpy.float32)
    with pytest.raises(ValueError, match='a batch and a channel axis'):
        F.group_normalization(numpy.ones(6, numpy.float32), 2, gamma, gamma)


@pytest.mark.parametrize('gamma_shape, beta_shape, name', [
    ((3,), (6,), 'gamma'),
    ((12,), (6,), 'gamma'),
    ((6,), (6, 1), 'beta'),
])
def test_group_normalization_gamma_shape(gamma_shape, beta_shape, name):
    x = numpy.ones((2, 6, 3), numpy.float32)
    with pytest.raises(ValueError, match=rf'{name} must have shape \(6,\)'):
        F.group_normalization(x, 2, numpy.ones(gamma_shape, numpy.float32),
                              numpy.ones(beta_shape, numpy.float32))


def test_group_normalization_with_one_group_per_channel():
    """With C groups each channel of each sample is standardized alone
    (instance normalization)."""
    x = numpy.random.RandomState(1).randn(2, 3, 10)
    y = F.group_normalization(x, 3, numpy.ones(3), numpy.zeros(3)).array
    expected = (x - x.mean(axis=2, keepdims=True)) / numpy.sqrt(
        x.var(axis=2, keepdims=True) + 1e-5)
    numpy.testing.assert_allclose(y, expected, atol=1e-12)


def test_local_response_normalization_arguments():
    with pytest.raises(ValueError, match='positive int'):
        F.local_response_normalization(numpy.ones((1, 3), numpy.float32),
                                       n=0)
    with pytest.raises(type_check.InvalidType, match='ndim'):
        F.local_response_normalization(numpy.ones(3, numpy.float32))
    for n in (2.5, True):
        with pytest.raises(ValueError, match='positive int'):
            F.local_response_normalization(
                numpy.ones((1, 3), numpy.float32), n=n)
    for dtype in (numpy.int32, numpy.bool_):
        with pytest.raises(type_check.InvalidType, match='dtype'):
            F.local_response_normalization(numpy.ones((1, 3), dtype))


def test_local_response_normalization_defaults():
    # n=5, k=2, alpha=1e-4, beta=0.75, as Chainer's.
    x = numpy.random.RandomState(3).uniform(5, 20, (2, 7, 3))
    padded = numpy.pad(x ** 2, ((0, 0), (2, 2), (0, 0)))
    window = sum(padded[:, i:i + 7] for i in range(5))
    numpy.testing.assert_allclose(
        F.local_response_normalization(x).array,
        x / (2 + 1e-4 * window) ** 0.75, rtol=1e-12)


def test_local_response_normalization_float16_stays_float16():
    x = numpy.random.RandomState(2).randn(2, 6, 3).astype(numpy.float16)
    y = F.local_response_normalization(x, alpha=0.5)
    assert y.dtype == numpy.float16
    x64 = x.astype(numpy.float64)
    padded = numpy.pad(x64 ** 2, ((0, 0), (2, 2), (0, 0)))
    window = sum(padded[:, i:i + 6] for i in range(5))
    numpy.testing.assert_allclose(y.array, x64 / (2 + 0.5 * window) ** 0.75,
                                  rtol=2e-3, atol=2e-3)


def test_normalize_zero_vector_has_finite_gradient():
    x = Variable(numpy.zeros((2, 3)))
    y = F.normalize(x)
    y.grad = numpy.ones((2, 3))
    y.backward()
    numpy.testing.assert_allclose(x.grad, numpy.full((2, 3), 1e5))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_normalize_a_scalar_over_no_axes(dtype):
    """A 0-d x with axis () is its own vector: y = x / (|x| + eps), a 0-d
    array of x's dtype."""
    x = Variable(numpy.asarray(-2.0, dtype=dtype))
    y = F.normalize(x, eps=0.5, axis=())
    assert isinstance(y.array, numpy.ndarray) and y.shape == ()
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y.array, -0.8, rtol=1e-3)
    y.backward()
    assert x.grad.shape == ()


def test_normalize_axis_none_is_rejected():
    with pytest.raises(TypeError, match='axis'):
        F.normalize(numpy.ones((2, 3)), axis=None)


def _whitening_reference(x, groups, eps=2e-5):
    n, channels = x.shape[:2]
    per_group = channels // groups
    columns = x.reshape(n, groups, per_group, -1).transpose(1, 2, 0, 3)
    columns = columns.reshape(groups, per_group, -1)
    mean = columns.mean(axis=2)
    centered = columns - mean[:, :, None]
    cov = centered @ centered.transpose(0, 2, 1) / columns.shape[2]
    cov += eps * numpy.eye(per_group)
    values, vectors = numpy.linalg.eigh(cov)
    projection = (vectors / numpy.sqrt(values)[:, None]) @ \
        vectors.transpose(0, 2, 1)
    return mean, projection, columns.shape[2]


def test_decorrelated_running_statistics_after_several_calls():
    rs = numpy.random.RandomState(3)
    running_mean = numpy.zeros((2, 3))
    running_projection = numpy.tile(numpy.eye(3), (2, 1, 1))
    expected_mean = running_mean.copy()
    expected_projection = running_projection.copy()
    for _ in range(3):
        x = rs.randn(8, 6, 2) * 2 + 1
        F.decorrelated_batch_normalization(
            x, groups=2, running_mean=running_mean,
            running_projection=running_projection, decay=0.6)
        mean, projection, m = _whitening_reference(x, 2)
        expected_mean = 0.6 * expected_mean + 0.4 * mean
        expected_projection = (0.6 * expected_projection +
                               0.4 * m / (m - 1) * projection)
    numpy.testing.assert_allclose(running_mean, expected_mean, rtol=1e-10)
    numpy.testing.assert_allclose(running_projection, expected_projection,
                                  rtol=1e-8)


def test_decorrelated_running_statistics_default_decay():
    x = numpy.random.RandomState(6).randn(8, 4)
    running_mean = numpy.zeros((1, 4))
    running_projection = numpy.zeros((1, 4, 4))
    F.decorrelated_batch_normalization(
        x, groups=1, running_mean=running_mean,
        running_projection=running_projection)
    mean, projection, m = _whitening_reference(x, 1)
    numpy.testing.assert_allclose(running_mean, 0.1 * mean, rtol=1e-10)
    numpy.testing.assert_allclose(running_projection,
                                  0.1 * m / (m - 1) * projection, rtol=1e-8)


def test_decorrelated_output_is_white():
    x = numpy.random.RandomState(4).randn(200, 4) @ numpy.array(
        [[2.0, 1, 0, 0], [0, 1, 0.5, 0], [0, 0, 1, 0], [1, 0, 0, 3]])
    y = F.decorrelated_batch_normalization(x, groups=1).array
    numpy.testing.assert_allclose(numpy.cov(y.T, bias=True), numpy.eye(4),
                                  atol=1e-3)
    fixed = F.fixed_decorrelated_batch_normalization(
        x, *_whitening_reference(x, 1)[:2], groups=1)
    numpy.testing.assert_allclose(fixed.array, y, atol=1e-10)


def test_decorrelated_has_no_second_order_gradient():
    x = Variable(numpy.random.RandomState(5).randn(6, 2))
    loss = F.sum(F.decorrelated_batch_normalization(x, groups=1) ** 3)
    with pytest.raises(RuntimeError, match='double backpropagation'):
        function_node.grad([loss], [x], enable_double_backprop=True)
    # The first-order gradient is an array result, no node of a graph.
    loss.backward()
    assert x.grad_var.requires_grad is False


def test_decorrelated_argument_errors():
    x = numpy.ones((4, 6), numpy.float32)
    # Its options are keyword-only, as in Chainer.
    with pytest.raises(TypeError):
        F.decorrelated_batch_normalization(x, 2)
    with pytest.raises(ValueError, match='divide into 4 groups'):
        F.decorrelated_batch_normalization(x, groups=4)
    for running_mean, got in [
            (numpy.zeros(6, numpy.float32), r'\(6,\) float32'),
            (numpy.zeros((2, 3), bool), r'\(2, 3\) bool'),
            (numpy.zeros((2, 3), numpy.int32), r'\(2, 3\) int32'),
            ([[0.0] * 3] * 2, 'list')]:
        with pytest.raises(ValueError, match=(
                r'running_mean must be a float array of shape \(2, 3\), '
                rf'got {got}')):
            F.decorrelated_batch_normalization(
                x, groups=2, running_mean=running_mean)
    for bad in (x.astype(bool), x.astype(numpy.int32),
                x.astype(numpy.complex64)):
        with pytest.raises(type_check.InvalidType, match='dtype'):
            F.decorrelated_batch_normalization(bad, groups=2)
    # The node itself, as Chainer code may apply it: x of two axes at least.
    with pytest.raises(type_check.InvalidType, match='ndim'):
        decorrelated.DecorrelatedBatchNormalization(1, 2e-5).apply((x[0],))
    with pytest.raises(ValueError, match='using_config'):
        F.decorrelated_batch_normalization(x, groups=2, train=True)
    with pytest.raises(ValueError, match=(
            r'projection must be a float array of shape \(2, 3, 3\), got '
            r'\(2, 3\) float32')):
        F.fixed_decorrelated_batch_normalization(
            x, numpy.zeros((2, 3), numpy.float32),
            numpy.zeros((2, 3), numpy.float32), groups=2)


def test_decorrelated_default_groups():
    # 16 groups, as Chainer's: 32 channels whiten in pairs.
    x = numpy.random.RandomState(7).randn(10, 32)
    running_mean = numpy.zeros((16, 2))
    y = F.decorrelated_batch_normalization(x, running_mean=running_mean)
    mean, projection, _ = _whitening_reference(x, 16)
    numpy.testing.assert_allclose(running_mean, 0.1 * mean, rtol=1e-10)
    numpy.testing.assert_allclose(
        F.fixed_decorrelated_batch_normalization(x, mean, projection).array,
        y.array, atol=1e-10)


def _layer_inputs(x_dtype=numpy.float32, gamma_shape=(3,), beta_shape=(3,),
                  beta_dtype=numpy.float32):
    return (numpy.ones((2, 3), x_dtype),
            numpy.ones(gamma_shape, numpy.float32),
            numpy.ones(beta_shape, beta_dtype))


@pytest.mark.parametrize('inputs, match', [
    # x of any kind but float: ints, bools, complex numbers.
    (_layer_inputs(x_dtype=numpy.int32), r'x\.dtype\.kind'),
    (_layer_inputs(x_dtype=numpy.bool_), r'x\.dtype\.kind'),
    (_layer_inputs(x_dtype=numpy.complex64), r'x\.dtype\.kind'),
    # beta of gamma's shape and dtype, neither narrower nor longer.
    (_layer_inputs(beta_dtype=numpy.float16), r'beta\.dtype'),
    (_layer_inputs(beta_dtype=numpy.float64), r'beta\.dtype'),
    (_layer_inputs(beta_shape=(4,)), r'beta\.shape'),
    # gamma spans exactly the units: no extra axis.
    (_layer_inputs(gamma_shape=(3, 1), beta_shape=(3, 1)), r'gamma\.ndim'),
])
def test_layer_normalization_refuses_what_standardization_cannot_take(
        inputs, match):
    with pytest.raises(type_check.InvalidType, match=match):
        F.layer_normalization(*inputs)
