"""Batch normalization and renormalization: running statistics, train and
test behaviour, precision, dtypes and argument errors."""
import re
import warnings

import numpy
import pytest

from kusari.array import configuration
from kusari.autograd import functions as F
from kusari.autograd import function_node
from kusari.autograd.utils import type_check
from kusari.autograd.variable import Variable


def _batch(seed=0, shape=(6, 3, 4), dtype=numpy.float32):
    rs = numpy.random.RandomState(seed)
    x = rs.randn(*shape).astype(dtype)
    gamma = rs.uniform(0.5, 1.5, shape[1]).astype(dtype)
    beta = rs.randn(shape[1]).astype(dtype)
    return x, gamma, beta


def _reference(x, gamma, beta, eps=2e-5):
    axes = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return (gamma.reshape(shape) * (x - mean) / numpy.sqrt(var + eps) +
            beta.reshape(shape))


def test_running_statistics_after_several_calls():
    rs = numpy.random.RandomState(1)
    gamma = numpy.ones(3, numpy.float32)
    beta = numpy.zeros(3, numpy.float32)
    running_mean = numpy.zeros(3, numpy.float32)
    running_var = numpy.ones(3, numpy.float32)
    expected_mean = running_mean.astype(numpy.float64)
    expected_var = running_var.astype(numpy.float64)
    decay = 0.7
    for _ in range(4):
        x = rs.randn(5, 3, 2).astype(numpy.float32) * 3 + 1
        F.batch_normalization(x, gamma, beta, running_mean=running_mean,
                              running_var=running_var, decay=decay)
        x64 = x.astype(numpy.float64)
        m = 10  # values per channel
        expected_mean = (decay * expected_mean +
                         (1 - decay) * x64.mean(axis=(0, 2)))
        expected_var = (decay * expected_var + (1 - decay) * m / (m - 1) *
                        x64.var(axis=(0, 2)))
    numpy.testing.assert_allclose(running_mean, expected_mean, rtol=1e-5)
    numpy.testing.assert_allclose(running_var, expected_var, rtol=1e-5)


@pytest.mark.parametrize('shape', [(2, 3), (1, 3, 2), (1, 3)])
def test_running_variance_of_few_values_is_unbiased(shape):
    # m values per feature: the variance times m / (m - 1), m = 2 here;
    # one value (no spread to estimate) adds its variance, 0, as it is.
    x, gamma, beta = _batch(3, shape)
    running_var = numpy.ones(3, numpy.float32)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the warning of one value
        F.batch_normalization(x, gamma, beta, running_var=running_var)
    m = x.size // 3
    axes = (0,) + tuple(range(2, x.ndim))
    numpy.testing.assert_allclose(
        running_var, 0.9 + 0.1 * m / max(m - 1, 1) * x.var(axis=axes),
        rtol=1e-6)


def test_running_statistics_default_decay():
    """decay defaults to 0.9, in batch_normalization and in
    batch_renormalization's update."""
    x, gamma, beta = _batch(12)
    m = x.shape[0] * x.shape[2]
    for update in (
            lambda mean, var: F.batch_normalization(
                x, gamma, beta, running_mean=mean, running_var=var),
            lambda mean, var: F.batch_renormalization(
                x, gamma, beta, 2.0, 1.0, running_mean=mean,
                running_var=var, update_statistics=True)):
        running_mean = numpy.ones(3, numpy.float32)
        running_var = numpy.ones(3, numpy.float32)
        update(running_mean, running_var)
        numpy.testing.assert_allclose(
            running_mean, 0.9 + 0.1 * x.mean(axis=(0, 2)), rtol=1e-5)
        numpy.testing.assert_allclose(
            running_var, 0.9 + 0.1 * m / (m - 1) * x.var(axis=(0, 2)),
            rtol=1e-5)


def test_uses_batch_statistics_whatever_config_train():
    x, gamma, beta = _batch()
    with configuration.using_config('train', False):
        y = F.batch_normalization(x, gamma, beta)
    numpy.testing.assert_allclose(y.array, _reference(x, gamma, beta),
                                  atol=1e-5)


def test_fixed_matches_batch_with_batch_statistics():
    x, gamma, beta = _batch(2)
    mean = x.mean(axis=(0, 2))
    var = x.var(axis=(0, 2))
    fixed = F.fixed_batch_normalization(x, gamma, beta, mean, var)
    batch = F.batch_normalization(x, gamma, beta)
    numpy.testing.assert_allclose(fixed.array, batch.array, atol=1e-5)


def test_large_offset_keeps_precision():
    # A one-pass E[x^2] - E[x]^2 loses every digit here in float32.
    rs = numpy.random.RandomState(3)
    x = (1e4 + rs.randn(64, 2)).astype(numpy.float32)
    gamma = numpy.ones(2, numpy.float32)
    beta = numpy.zeros(2, numpy.float32)
    y = F.batch_normalization(x, gamma, beta).array
    expected = _reference(x.astype(numpy.float64), gamma, beta)
    numpy.testing.assert_allclose(y, expected, atol=1e-2)


def test_float16_computes_in_float32():
    x, gamma, beta = _batch(4, dtype=numpy.float16)
    y = F.batch_normalization(x, gamma, beta)
    assert y.dtype == numpy.float16
    expected = _reference(*[a.astype(numpy.float64)
                            for a in (x, gamma, beta)])
    numpy.testing.assert_allclose(y.array, expected, atol=5e-3, rtol=5e-3)


def test_float16_x_with_float32_parameters():
    x, gamma, beta = _batch(5)
    x16 = Variable(x.astype(numpy.float16))
    gamma = Variable(gamma)
    beta = Variable(beta)
    y = F.batch_normalization(x16, gamma, beta)
    assert y.dtype == numpy.float16
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert x16.grad.dtype == numpy.float16
    assert gamma.grad.dtype == numpy.float32
    numpy.testing.assert_allclose(beta.grad, numpy.full(3, 24.0))


@pytest.mark.parametrize('x_dtype,param_dtype', [
    (numpy.float16, numpy.float32), (numpy.float32, numpy.float16)])
def test_fixed_x_and_parameters_of_two_dtypes(x_dtype, param_dtype):
    # Each gradient in its input's dtype, x's and the parameters'.
    x, gamma, beta = _batch(5)
    xv = Variable(x.astype(x_dtype))
    params = [Variable(a.astype(param_dtype))
              for a in (gamma, beta, x.mean(axis=(0, 2)), x.var(axis=(0, 2)))]
    y = F.fixed_batch_normalization(xv, *params)
    assert y.dtype == x_dtype
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert xv.grad.dtype == x_dtype
    assert [p.grad.dtype for p in params] == [param_dtype] * 4
    numpy.testing.assert_allclose(params[1].grad, numpy.full(3, 24.0))
    # x's gradient computed in the wider dtype, from the parameters given.
    gamma, var = (params[0].array.astype(numpy.float64),
                  params[3].array.astype(numpy.float64))
    numpy.testing.assert_allclose(xv.grad, numpy.broadcast_to(
        (gamma / numpy.sqrt(var + 2e-5))[:, None], x.shape),
        rtol=1e-3 if x_dtype == numpy.float16 else 1e-6)


STANDARDIZATIONS = [
    (F.batch_normalization, (6, 3, 4)),
    (F.layer_normalization, (4, 3)),
    (lambda x, gamma, beta: F.group_normalization(x, 3, gamma, beta),
     (2, 3, 4)),
]


@pytest.mark.parametrize('func, x_shape', STANDARDIZATIONS)
@pytest.mark.parametrize('param_dtype', [numpy.float64, numpy.float32])
def test_fused_and_graph_gradients_agree(func, x_shape, param_dtype):
    """The fused first-order gradients and the differentiable graph built
    for double backprop compute the same values, also where gamma and
    beta are of a smaller dtype than x (both compute in x's)."""
    x, gamma, beta = _batch(6, x_shape, numpy.float64)
    gamma, beta = gamma.astype(param_dtype), beta.astype(param_dtype)
    gy = numpy.random.RandomState(7).randn(*x_shape)
    results = []
    for double in (False, True):
        inputs = [Variable(a) for a in (x, gamma, beta)]
        loss = F.sum(func(*inputs) * gy)
        results.append([g.array for g in function_node.grad(
            [loss], inputs, enable_double_backprop=double)])
    for fused, graph in zip(*results):
        numpy.testing.assert_allclose(fused, graph, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize('func, x_shape', STANDARDIZATIONS)
def test_gradients_of_parameters_wider_than_x_keep_each_dtype(func,
                                                               x_shape):
    # float32 x, float64 gamma and beta: both paths compute in x's dtype
    # and give each input its gradient in its own dtype.
    x, gamma, beta = _batch(6, x_shape, numpy.float64)
    x = x.astype(numpy.float32)
    gy = numpy.random.RandomState(7).randn(*x_shape).astype(numpy.float32)
    results = []
    for double in (False, True):
        inputs = [Variable(a) for a in (x, gamma, beta)]
        loss = F.sum(func(*inputs) * gy)
        grads = function_node.grad([loss], inputs,
                                   enable_double_backprop=double)
        assert [g.dtype for g in grads] == [numpy.float32, numpy.float64,
                                            numpy.float64]
        results.append([g.array for g in grads])
    for fused, graph in zip(*results):
        numpy.testing.assert_allclose(fused, graph, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize('func, x_shape', STANDARDIZATIONS)
def test_first_order_gradients_require_no_gradient(func, x_shape):
    # As of every function: the gradients a backward without double
    # backprop computes are plain arrays in Variables requiring none.
    inputs = [Variable(a) for a in _batch(0, x_shape, numpy.float64)]
    F.sum(func(*inputs) ** 2).backward()
    for v in inputs:
        assert v.grad_var.requires_grad is False


def test_gradient_of_one_value_per_feature_is_zero():
    # Each feature standardized over a single value: y is beta whatever x
    # is, so x gets a zero gradient (and gamma none either).
    rs = numpy.random.RandomState(0)
    x, gamma, beta = (Variable(rs.randn(*shape)) for shape in
                      ((1, 3), (3,), (3,)))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        y = F.batch_normalization(x, gamma, beta)
    y.grad = rs.randn(1, 3)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, 0)
    numpy.testing.assert_array_equal(gamma.grad, 0)


def test_gradient_of_an_empty_batch_is_computed_without_warnings():
    # No value per feature: the gradients are zeros, with no 0 / 0 on the
    # way (the statistics' count is taken as 1).
    x, gamma, beta = (Variable(numpy.zeros(shape)) for shape in
                      ((0, 3), (3,), (3,)))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        y = F.batch_normalization(x, gamma, beta)
        y.grad = numpy.ones_like(y.array)
        y.backward()
    assert x.grad.shape == (0, 3)
    numpy.testing.assert_array_equal(gamma.grad, 0)
    numpy.testing.assert_array_equal(beta.grad, 0)


def test_gamma_shape_mismatch_is_an_invalid_type():
    x, gamma, beta = _batch()
    with pytest.raises(type_check.InvalidType, match='gamma'):
        F.batch_normalization(x, numpy.ones(4, numpy.float32), beta)
    # gamma and beta of one shape, shorter or longer than x's axis.
    for side in (2, 4):
        gamma = numpy.ones(side, numpy.float32)
        with pytest.raises(type_check.InvalidType,
                           match=r'gamma\.shape\[0\] == x\.shape\[1\]'):
            F.batch_normalization(x, gamma, gamma)


@pytest.mark.parametrize('dtype', [numpy.bool_, numpy.int32])
def test_non_float_gamma_is_an_invalid_type(dtype):
    x, _, _ = _batch()
    gamma = numpy.ones(3, dtype)
    with pytest.raises(type_check.InvalidType, match='gamma'):
        F.batch_normalization(x, gamma, gamma)


def test_beta_shape_mismatch_is_an_invalid_type():
    x, gamma, _ = _batch()
    with pytest.raises(type_check.InvalidType, match='beta'):
        F.batch_normalization(x, gamma, numpy.zeros(2, numpy.float32))


def test_gamma_of_too_many_axes_is_an_invalid_type():
    x = numpy.ones((4, 3), numpy.float32)
    gamma = numpy.ones((3, 1), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='x.ndim'):
        F.batch_normalization(x, gamma, gamma)


def test_gamma_of_too_few_axes_is_an_invalid_type():
    # axis=0 of a 3-d x: gamma and beta span the two other axes.
    x = numpy.ones((4, 2, 3), numpy.float32)
    gamma = numpy.ones(2, numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r'gamma\.ndim'):
        F.batch_normalization(x, gamma, gamma, axis=0)


@pytest.mark.parametrize('running_var', [
    numpy.ones(2, numpy.float32), numpy.ones(4, numpy.float32),
    numpy.ones(3, numpy.int32)])
@pytest.mark.parametrize('with_mean', [True, False])
def test_running_statistics_checked_before_any_update(running_var,
                                                      with_mean):
    # A float array of gamma's shape, given with running_mean or alone.
    x, gamma, beta = _batch()
    running_mean = numpy.zeros(3, numpy.float32) if with_mean else None
    with pytest.raises(ValueError, match=re.escape(
            f'running_var must be a float array of gamma\'s shape (3,), '
            f'got {running_var.shape} {running_var.dtype}')):
        F.batch_normalization(x, gamma, beta, running_mean=running_mean,
                              running_var=running_var)
    assert running_mean is None or not running_mean.any()


@pytest.mark.parametrize('name', ['mean', 'var'])
@pytest.mark.parametrize('shape,dtype,wrong', [
    ((3,), numpy.float16, 'dtype'), ((3,), numpy.float64, 'dtype'),
    ((2,), numpy.float32, 'shape'), ((4,), numpy.float32, 'shape')])
def test_fixed_statistics_unlike_gamma_are_refused(name, shape, dtype,
                                                   wrong):
    x, gamma, beta = _batch()
    statistics = {'mean': numpy.zeros(3, numpy.float32),
                  'var': numpy.ones(3, numpy.float32)}
    statistics[name] = numpy.ones(shape, dtype)
    with pytest.raises(type_check.InvalidType,
                       match=f'{name}.{wrong} == gamma.{wrong}'):
        F.fixed_batch_normalization(x, gamma, beta, statistics['mean'],
                                    statistics['var'])


def test_removed_and_unknown_arguments():
    x, gamma, beta = _batch()
    with pytest.raises(TypeError, match='3 positional arguments'):
        F.batch_normalization(x, gamma, beta, 1e-3)  # eps is keyword-only
    with pytest.raises(ValueError, match='using_config'):
        F.batch_normalization(x, gamma, beta, train=True)
    with pytest.raises(TypeError, match='bogus'):
        F.batch_normalization(x, gamma, beta, bogus=1)


@pytest.mark.parametrize('axis', [3, 4, -4])
def test_axis_out_of_range(axis):
    x, gamma, beta = _batch()
    with pytest.raises(ValueError, match=f'axis {axis} is out of range'):
        F.batch_normalization(x, gamma, beta, axis=(0, axis))


def test_axis_named_twice():
    x, gamma, beta = _batch()
    with pytest.raises(ValueError, match='names an axis twice'):
        F.batch_normalization(x, gamma[:1], beta[:1], axis=(0, 2, -1))


def test_x_of_no_axes_is_an_invalid_type():
    _, gamma, beta = _batch()
    with pytest.raises(type_check.InvalidType, match='x.ndim'):
        F.batch_normalization(numpy.ones((), numpy.float32), gamma, beta)


@pytest.mark.parametrize('axis', [(0, 1), (-3, -2), (0, -2)])
def test_axis_argument_names_the_statistics_axes(axis):
    # Negative axes count from the end, down to -x.ndim.
    x, _, _ = _batch(7)
    gamma = numpy.ones(4, numpy.float32)
    beta = numpy.zeros(4, numpy.float32)
    y = F.batch_normalization(x, gamma, beta, axis=axis).array
    expected = (x - x.mean(axis=(0, 1))) / numpy.sqrt(
        x.var(axis=(0, 1)) + 2e-5)
    numpy.testing.assert_allclose(y, expected, atol=1e-5)


@pytest.mark.parametrize('shape', [(2, 3, 1), (0, 3)])
def test_a_batch_of_several_samples_or_none_does_not_warn(shape):
    x, gamma, beta = _batch(shape=shape)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert F.batch_normalization(x, gamma, beta).shape == shape


def test_single_sample_warns():
    x = numpy.ones((1, 3), numpy.float32)
    gamma = numpy.ones(3, numpy.float32)
    with pytest.warns(UserWarning, match='length one') as caught:
        F.batch_normalization(x, gamma, gamma)
    assert caught[0].filename == __file__  # the caller's line


def test_renormalization_requires_running_statistics():
    x, gamma, beta = _batch()
    with pytest.raises(TypeError, match='running_mean'):
        F.batch_renormalization(x, gamma, beta, 2.0, 1.0)


@pytest.mark.parametrize('running', ['running_mean', 'running_var'])
def test_renormalization_requires_both_running_statistics(running):
    x, gamma, beta = _batch()
    with pytest.raises(TypeError, match='running_mean and running_var'):
        F.batch_renormalization(x, gamma, beta, 2.0, 1.0,
                                **{running: numpy.ones(3, numpy.float32)})


@pytest.mark.parametrize('rmax, dmax, match', [
    (0.5, 1.0, 'rmax must be at least 1, got 0.5'),
    (2.0, -0.5, 'dmax must be at least 0, got -0.5'),
])
def test_renormalization_bounds_checked(rmax, dmax, match):
    x, gamma, beta = _batch()
    with pytest.raises(ValueError, match=match):
        F.batch_renormalization(
            x, gamma, beta, rmax, dmax,
            running_mean=numpy.zeros(3, numpy.float32),
            running_var=numpy.ones(3, numpy.float32))


def test_renormalization_refuses_inference_mode():
    # as Chainer's (an assertion there): inference is
    # fixed_batch_normalization's job
    x, gamma, beta = _batch()
    running_mean = numpy.zeros(3, numpy.float32)
    with configuration.using_config('train', False):
        with pytest.raises(RuntimeError, match='batch_renormalization: '
                           'works in training only'):
            F.batch_renormalization(x, gamma, beta, 2.0, 1.0,
                                    running_mean=running_mean,
                                    running_var=running_mean + 1,
                                    update_statistics=True)
    assert not running_mean.any()


def test_renormalization_updates_only_when_asked():
    x, gamma, beta = _batch(8)
    running_mean = numpy.zeros(3, numpy.float32)
    running_var = numpy.ones(3, numpy.float32)
    F.batch_renormalization(x, gamma, beta, 2.0, 1.0,
                            running_mean=running_mean,
                            running_var=running_var)
    assert not running_mean.any() and (running_var == 1).all()
    F.batch_renormalization(x, gamma, beta, 2.0, 1.0,
                            running_mean=running_mean,
                            running_var=running_var, decay=0.5,
                            update_statistics=True)
    numpy.testing.assert_allclose(running_mean, 0.5 * x.mean(axis=(0, 2)),
                                  rtol=1e-5)
    numpy.testing.assert_allclose(
        running_var, 0.5 + 0.5 * x.var(axis=(0, 2), ddof=1), rtol=1e-5)


def test_renormalization_with_unit_bounds_is_batch_normalization():
    x, gamma, beta = _batch(9)
    renorm = F.batch_renormalization(
        x, gamma, beta, 1.0, 0.0, running_mean=numpy.ones(3, numpy.float32),
        running_var=numpy.full(3, 4.0, numpy.float32))
    numpy.testing.assert_allclose(renorm.array, _reference(x, gamma, beta),
                                  atol=1e-5)


def test_fixed_batch_renormalization_is_deprecated():
    x, gamma, beta = _batch()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        F.fixed_batch_renormalization(x, gamma, beta, beta, gamma)
    deprecations = [w for w in caught
                    if issubclass(w.category, DeprecationWarning)]
    assert deprecations and deprecations[0].filename == __file__


_GPU_CASES = {
    'batch_normalization': lambda x, g, b: F.batch_normalization(x, g, b),
    'layer_normalization': lambda x, g, b: F.layer_normalization(
        x.reshape(len(x), -1)[:, :3], g, b),
    'group_normalization': lambda x, g, b: F.group_normalization(
        x, 3, g, b),
    'fixed_batch_normalization': lambda x, g, b: (
        F.fixed_batch_normalization(x, g, b, b, g)),
    'batch_renormalization': lambda x, g, b: F.batch_renormalization(
        x, g, b, 1.5, 0.5, running_mean=b.xp.zeros_like(b.array),
        running_var=b.xp.ones_like(b.array)),
    'local_response_normalization': lambda x, g, b: (
        F.local_response_normalization(x, n=3, alpha=0.5)),
    'decorrelated_batch_normalization': lambda x, g, b: (
        F.decorrelated_batch_normalization(x, groups=1)),
}


@pytest.mark.gpu
@pytest.mark.parametrize('name', sorted(_GPU_CASES))
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_gpu_matches_cpu(name, dtype):
    """The CuPy kernels compute what the NumPy code computes."""
    from kusari.array import backend
    device = backend.get_device('@cupy:0')
    arrays = _batch(10, dtype=dtype)
    results = []
    for send in (lambda a: a, device.send):
        inputs = [Variable(send(a)) for a in arrays]
        y = _GPU_CASES[name](*inputs)
        gy = numpy.random.RandomState(11).randn(*y.shape).astype(dtype)
        y.grad = send(gy)
        y.backward()
        results.append([backend.CpuDevice().send(v) for v in
                        [y.array] + [x.grad for x in inputs]
                        if v is not None])
    tolerance = 1e-2 if dtype == numpy.float16 else 1e-4
    for cpu, gpu in zip(*results):
        numpy.testing.assert_allclose(gpu, cpu, rtol=tolerance,
                                      atol=tolerance)
