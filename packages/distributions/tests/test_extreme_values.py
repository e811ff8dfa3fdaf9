"""Degenerate parameters and plain inputs that Chainer's distributions
accept: a Bernoulli with p of 0 or 1, NumPy scalars as points, and
Chainer's x log x with its true derivative."""
import warnings

import numpy
import pytest
import scipy.stats

from kusari import distributions as D
from kusari.autograd import Variable
from kusari.autograd import gradient_check
from kusari.distributions import bernoulli
from kusari.distributions import utils


def test_bernoulli_of_certain_outcomes_has_scipys_densities_and_entropy():
    p = numpy.array([0, 1, 0.3, 1], dtype=numpy.float32)
    x = numpy.array([0, 1, 1, 0], dtype=numpy.float32)
    with numpy.errstate(divide='ignore', invalid='ignore'):
        dist = D.Bernoulli(p)
        log_prob = dist.log_prob(x).array
        prob = dist.prob(x).array
        entropy = dist.entropy.array
    numpy.testing.assert_allclose(log_prob, scipy.stats.bernoulli.logpmf(x, p),
                                  rtol=1e-6)
    numpy.testing.assert_allclose(prob, scipy.stats.bernoulli.pmf(x, p),
                                  rtol=1e-6)
    numpy.testing.assert_allclose(entropy, scipy.stats.bernoulli.entropy(p),
                                  rtol=1e-6, atol=1e-7)
    assert log_prob.dtype == numpy.float32


@pytest.mark.parametrize('binary_check', [True, False])
def test_bernoulli_of_certain_outcomes_between_0_and_1(binary_check):
    """Chainer's relaxation: log x where p is 1, log(1 - x) where p is 0;
    the binary check makes it -inf."""
    p = numpy.array([1, 0], dtype=numpy.float32)
    x = numpy.array([0.25, 0.25], dtype=numpy.float32)
    with numpy.errstate(divide='ignore'):
        log_prob = D.Bernoulli(p, binary_check=binary_check).log_prob(x)
    if binary_check:
        assert (log_prob.array == -numpy.inf).all()
    else:
        numpy.testing.assert_allclose(log_prob.array,
                                      numpy.log([0.25, 0.75]), rtol=1e-6)


def test_bernoulli_log_prob_takes_x_in_the_logits_dtype():
    logit = numpy.array([0.5, -1.0])
    x = numpy.array([1, 0], dtype=numpy.float32)
    log_prob = bernoulli._bernoulli_log_prob(logit, x)
    assert log_prob.dtype == numpy.float64
    gradient_check.check_double_backward(
        lambda logit: bernoulli._bernoulli_log_prob(logit, x), logit,
        numpy.ones(2), numpy.ones(2))


def test_bernoulli_log_prob_backward_through_infinite_logits_is_finite():
    logit = Variable(numpy.array([numpy.inf, 0.5], dtype=numpy.float32))
    x = numpy.array([1, 0], dtype=numpy.float32)
    log_prob = bernoulli._bernoulli_log_prob(logit, x)
    log_prob.grad = numpy.ones(2, dtype=numpy.float32)
    log_prob.backward()
    assert numpy.isfinite(logit.grad).all()
    numpy.testing.assert_allclose(logit.grad[1], -1 / (1 + numpy.exp(-0.5)),
                                  rtol=1e-6)


def test_numpy_scalar_points_are_taken_as_0_dim_arrays():
    # Arithmetic on 0-dim arrays gives NumPy scalars, as in a test's
    # numpy.exp(numpy.random.normal(size=())).
    dist = D.Exponential(numpy.array(2.0, dtype=numpy.float32))
    x = numpy.float32(0.5)
    assert dist.log_prob(x).shape == ()
    numpy.testing.assert_allclose(dist.cdf(x).array, 1 - numpy.exp(-1.0),
                                  rtol=1e-6)


def test_modified_xlogx_is_0_at_0_with_the_true_derivative():
    x = numpy.array([0.0, 0.5, 2.0])
    y = utils._modified_xlogx(x)
    numpy.testing.assert_allclose(y.array, [0.0, 0.5 * numpy.log(0.5),
                                            2 * numpy.log(2.0)])
    gradient_check.check_double_backward(
        utils._modified_xlogx, x[1:], numpy.ones(2), numpy.ones(2))
    variable = Variable(x)
    y = utils._modified_xlogx(variable)
    y.grad = numpy.ones(3)
    with pytest.warns(RuntimeWarning):
        y.backward()
    assert variable.grad[0] == -numpy.inf


def test_modified_xlogx_forward_does_not_warn_at_0():
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert utils._modified_xlogx(numpy.zeros(2)).array.tolist() == [0, 0]
