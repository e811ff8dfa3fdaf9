"""The Distribution interface: shapes, parameters, draws, derived values
and the members a distribution does not provide."""
import math
import warnings

import numpy
import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from kusari import distributions as D
from kusari.autograd import Variable

from distribution_builders import arrays, every_distribution, simplex

CASES = every_distribution()
IDS = [type(d).__name__ for d, _ in CASES]


@pytest.mark.parametrize('dist, event_shape', CASES, ids=IDS)
def test_shapes_and_draws(dist, event_shape):
    batch = (2, 3) if not isinstance(dist, D.Independent) else (2,)
    assert dist.batch_shape == batch
    assert dist.event_shape == event_shape
    assert dist.sample().shape == batch + event_shape
    assert dist.sample(5).shape == (5,) + batch + event_shape
    assert dist.sample((4, 2)).shape == (4, 2) + batch + event_shape
    assert dist.sample_n(3).shape == (3,) + batch + event_shape
    assert dist.sample_n(0).shape == (0,) + batch + event_shape
    assert isinstance(dist.sample_n(1), Variable)


@pytest.mark.parametrize('dist, event_shape', CASES, ids=IDS)
def test_log_prob_and_entropy_have_the_batch_shape(dist, event_shape):
    x = dist.sample(4)
    log_prob = dist.log_prob(x)
    assert log_prob.shape == (4,) + dist.batch_shape
    assert numpy.all(numpy.isfinite(log_prob.array))
    numpy.testing.assert_allclose(dist.prob(x).array,
                                  numpy.exp(log_prob.array), rtol=1e-6)
    numpy.testing.assert_allclose(dist.perplexity(x).array,
                                  numpy.exp(-log_prob.array), rtol=1e-6)
    if not isinstance(dist, D.Poisson):   # no closed form
        assert dist.entropy.shape == dist.batch_shape


@pytest.mark.parametrize('dist, event_shape', CASES, ids=IDS)
def test_params_are_variables_of_the_parameters(dist, event_shape):
    params = dist.params
    assert params and all(isinstance(v, Variable) for v in params.values())
    assert repr(dist) == (f'{type(dist).__name__}(batch_shape='
                          f'{dist.batch_shape}, event_shape='
                          f'{dist.event_shape})')


def test_param_names_follow_chainer():
    names = {type(d).__name__: sorted(d.params) for d, _ in CASES}
    assert names['Normal'] == ['loc', 'scale']
    assert names['Bernoulli'] == ['logit']
    assert names['Uniform'] == ['high', 'low']
    assert names['MultivariateNormal'] == ['loc', 'scale_tril']
    assert names['Pareto'] == ['alpha', 'scale']
    assert names['Independent'] == ['loc', 'scale']


def test_parameters_broadcast_to_one_batch_shape():
    dist = D.Normal(numpy.zeros((2, 1), numpy.float32),
                    numpy.ones(3, numpy.float32))
    assert dist.batch_shape == (2, 3)
    assert dist.scale.shape == (2, 3)
    tril = numpy.eye(2, dtype=numpy.float32)
    mvn = D.MultivariateNormal(numpy.zeros((4, 2), numpy.float32),
                               scale_tril=tril)
    assert mvn.batch_shape == (4,) and mvn.scale_tril.shape == (4, 2, 2)


def test_alternative_parameterisations_agree():
    loc, scale = arrays(3), arrays(3, seed=1)
    x = arrays(3, seed=2)
    by_log = D.Normal(loc, log_scale=numpy.log(scale))
    numpy.testing.assert_allclose(by_log.log_prob(x).array,
                                  D.Normal(loc, scale).log_prob(x).array,
                                  rtol=1e-6)
    numpy.testing.assert_allclose(by_log.scale.array, scale, rtol=1e-6)
    p = arrays(3, low=0.1, high=0.9)
    by_logit = D.Bernoulli(logit=numpy.log(p / (1 - p)))
    numpy.testing.assert_allclose(by_logit.p.array, p, rtol=1e-5)
    shifted = D.Uniform(loc=loc, scale=scale)
    numpy.testing.assert_allclose(shifted.high.array, loc + scale)
    numpy.testing.assert_allclose(shifted.scale.array, scale, rtol=1e-6)


def test_derived_functions_of_the_base_class():
    dist = D.Gumbel(arrays(3), arrays(3, seed=1))
    x = arrays(3, seed=2)
    cdf = dist.cdf(x).array
    numpy.testing.assert_allclose(dist.log_cdf(x).array, numpy.log(cdf),
                                  rtol=1e-6)
    numpy.testing.assert_allclose(dist.survival_function(x).array, 1 - cdf,
                                  rtol=1e-6)
    numpy.testing.assert_allclose(dist.log_survival_function(x).array,
                                  numpy.log1p(-cdf), rtol=1e-5)
    numpy.testing.assert_allclose(dist.stddev.array,
                                  numpy.sqrt(dist.variance.array))


@pytest.mark.parametrize('dist, member', [
    (D.Poisson(arrays(2)), 'cdf'),
    (D.Bernoulli(arrays(2, high=0.9)), 'icdf'),
    (D.Categorical(simplex(2, 3)), 'mean'),
    (D.Normal(arrays(2), arrays(2)), 'covariance'),
])
def test_members_a_distribution_lacks_name_it(dist, member):
    with pytest.raises(NotImplementedError,
                       match=f'{type(dist).__name__} does not provide '
                             f'{member}'):
        value = getattr(dist, member)
        value(arrays(2))


def test_bernoulli_binary_check():
    p = numpy.array([0.2, 0.7], numpy.float32)
    x = numpy.array([0.5, 1.0], numpy.float32)
    relaxed = D.Bernoulli(p).log_prob(x).array
    numpy.testing.assert_allclose(
        relaxed, x * numpy.log(p) + (1 - x) * numpy.log1p(-p), rtol=1e-6)
    checked = D.Bernoulli(p, binary_check=True).log_prob(x).array
    assert checked[0] == -numpy.inf
    assert checked[1] == pytest.approx(numpy.log(0.7))


@pytest.mark.parametrize('dist, outside', [
    (D.Uniform(low=numpy.zeros(2), high=numpy.ones(2)), [-0.5, 1.5]),
    (D.Exponential(numpy.ones(2)), [-1.0, -0.1]),
    (D.Pareto(numpy.ones(2), numpy.ones(2)), [0.5, 0.99]),
    (D.Beta(numpy.ones(2) * 2, numpy.ones(2)), [-0.1, 1.1]),
    (D.Gamma(numpy.ones(2), numpy.ones(2)), [-1.0, 0.0]),
    (D.LogNormal(numpy.zeros(2), numpy.ones(2)), [-1.0, 0.0]),
])
def test_log_prob_outside_the_support(dist, outside):
    """-inf there, and the gradient of the parameters stays finite."""
    params = list(dist.params.values())
    for param in params:
        param.requires_grad = True
    log_prob = dist.log_prob(numpy.array(outside))
    assert numpy.all(log_prob.array == -numpy.inf)
    sum(log_prob[i] for i in range(2)).backward()
    assert any(param.grad is not None for param in params)
    for param in params:
        if param.grad is not None:
            assert numpy.all(numpy.isfinite(param.grad))


def test_cauchy_moments_are_undefined():
    dist = D.Cauchy(arrays(3), arrays(3))
    for name in ('mean', 'variance'):
        with pytest.warns(RuntimeWarning, match='undefined'):
            value = getattr(dist, name)
        assert value.shape == (3,) and numpy.all(numpy.isnan(value.array))


def test_pareto_moments_are_infinite_for_small_alpha():
    dist = D.Pareto(numpy.ones(3), numpy.array([0.5, 1.5, 3.0]))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        mean, variance = dist.mean.array, dist.variance.array
    assert mean[0] == numpy.inf and mean[1] == pytest.approx(3.0)
    assert variance[1] == numpy.inf and variance[2] == pytest.approx(0.75)


def test_reparameterised_draws_carry_gradients():
    loc = Variable(arrays(3))
    scale = Variable(arrays(3, seed=1))
    numpy.random.seed(0)
    draws = D.Normal(loc, scale).sample(4)
    draws.grad = numpy.ones_like(draws.array)
    draws.backward()
    numpy.testing.assert_allclose(loc.grad, numpy.full(3, 4.0))
    numpy.random.seed(0)
    eps = numpy.random.standard_normal((4, 3)).astype(numpy.float32)
    numpy.testing.assert_allclose(scale.grad, eps.sum(axis=0), rtol=1e-5)


@pytest.mark.parametrize('dist, dtype', [
    (D.Bernoulli(arrays(2, high=0.9)), numpy.int64),
    (D.Categorical(simplex(2, 3)), numpy.int64),
    (D.Poisson(arrays(2)), numpy.float32),
    (D.Geometric(arrays(2, high=0.9)), numpy.float32),
    (D.Beta(arrays(2), arrays(2)), numpy.float32),
    (D.OneHotCategorical(simplex(2, 3)), numpy.float32),
])
def test_draws_that_are_not_reparameterised(dist, dtype):
    draws = dist.sample(3)
    assert draws.dtype == dtype and draws.creator is None
    assert not draws.requires_grad


def test_discrete_draws_lie_in_the_support():
    numpy.random.seed(1)
    assert set(numpy.unique(
        D.Bernoulli(arrays(4, high=0.9)).sample(50).array)) <= {0, 1}
    assert D.Geometric(arrays(4, high=0.9)).sample(50).array.min() >= 1
    categories = D.Categorical(simplex(4, 3)).sample(50).array
    assert categories.min() >= 0 and categories.max() <= 2
    one_hot = D.OneHotCategorical(simplex(4, 3)).sample(50).array
    assert numpy.all(one_hot.sum(axis=-1) == 1)
    dirichlet = D.Dirichlet(arrays(4, 3)).sample(50).array
    numpy.testing.assert_allclose(dirichlet.sum(axis=-1), 1, rtol=1e-5)


def test_independent_reinterprets_batch_axes():
    base = D.Normal(arrays(2, 3, 4), arrays(2, 3, 4))
    x = arrays(2, 3, 4, seed=3)
    for ndims, batch in [(0, (2, 3, 4)), (1, (2, 3)), (2, (2,)),
                         (3, ())]:
        dist = D.Independent(base, ndims)
        assert dist.batch_shape == batch
        assert dist.event_shape == (2, 3, 4)[len(batch):]
        expected = base.log_prob(x).array.sum(
            axis=tuple(range(3 - ndims, 3)))
        numpy.testing.assert_allclose(dist.log_prob(x).array, expected,
                                      rtol=1e-5)
    assert D.Independent(base).reinterpreted_batch_ndims == 2


@settings(max_examples=20, deadline=None, derandomize=True)
@given(q=st.floats(0.01, 0.99))
def test_icdf_inverts_cdf(q):
    for dist in (D.Normal(arrays(2), arrays(2)),
                 D.Laplace(arrays(2), arrays(2)),
                 D.Cauchy(arrays(2), arrays(2)),
                 D.Gumbel(arrays(2), arrays(2)),
                 D.Exponential(arrays(2)), D.Pareto(arrays(2), arrays(2)),
                 D.LogNormal(arrays(2), arrays(2)),
                 D.Uniform(low=arrays(2, high=1), high=arrays(2, low=1.5))):
        quantile = dist.icdf(numpy.full(2, q, numpy.float32))
        numpy.testing.assert_allclose(dist.cdf(quantile).array, q,
                                      rtol=2e-3, atol=1e-5,
                                      err_msg=type(dist).__name__)


@pytest.mark.parametrize('dist', [
    D.Normal(arrays(3), arrays(3)), D.Laplace(arrays(3), arrays(3)),
    D.Cauchy(arrays(3), arrays(3)), D.Gumbel(arrays(3), arrays(3)),
    D.LogNormal(arrays(3, low=-1, high=1), arrays(3, low=0.3, high=1)),
], ids=lambda d: type(d).__name__)
def test_mode_is_the_most_probable_point(dist):
    mode = dist.mode.array
    at_mode = dist.log_prob(mode).array
    for step in (-1e-2, 1e-2):
        assert numpy.all(at_mode >= dist.log_prob(mode + step).array)


def test_categorical_mode_and_one_hot_mode():
    p = numpy.array([[0.2, 0.5, 0.3], [0.6, 0.3, 0.1]], numpy.float32)
    assert D.Categorical(p).mode.array.tolist() == [1, 0]
    numpy.testing.assert_array_equal(D.OneHotCategorical(p).mode.array,
                                     numpy.eye(3)[[1, 0]])


def test_geometric_entropy_matches_the_series():
    p = 0.3
    k = numpy.arange(1, 400)
    mass = (1 - p) ** (k - 1) * p
    expected = -(mass * numpy.log(mass)).sum()
    entropy = D.Geometric(numpy.array([p])).entropy.array[0]
    assert entropy == pytest.approx(expected, rel=1e-9)
    assert math.isfinite(D.Geometric(numpy.array([1.0])).entropy.array[0])
