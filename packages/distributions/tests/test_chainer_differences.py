"""Behaviours the differential check against Chainer 7.8.1 found wrong
(conformance/differential/test_distributions.py), checked here without
Chainer."""
import numpy
import pytest
import scipy.linalg
import scipy.stats

from kusari import distributions as D
from kusari.autograd import Variable
from kusari.autograd import grad

from distribution_builders import arrays, lower_triangular


def test_independent_survival_is_the_product_of_the_components():
    """P(X > x) of independent components: each above its bound, not
    the complement of the cdf."""
    loc, scale = arrays(2, 3, dtype=numpy.float64), arrays(
        2, 3, seed=1, dtype=numpy.float64)
    x = arrays(2, 3, seed=2, dtype=numpy.float64)
    dist = D.Independent(D.Normal(loc, scale))
    expected = scipy.stats.norm.sf(x, loc, scale).prod(axis=-1)
    numpy.testing.assert_allclose(dist.survival_function(x).array,
                                  expected, rtol=1e-12)
    numpy.testing.assert_allclose(dist.log_survival_function(x).array,
                                  numpy.log(expected), rtol=1e-12)


def test_independent_covariance_is_block_diagonal():
    loc = arrays(2, 3, dtype=numpy.float64)
    tril = lower_triangular(2, 3).astype(numpy.float64)
    base = D.MultivariateNormal(loc, scale_tril=tril)
    covariance = D.Independent(base, 1).covariance.array
    blocks = tril @ tril.transpose(0, 2, 1)
    assert covariance.shape == (6, 6)
    numpy.testing.assert_allclose(covariance,
                                  scipy.linalg.block_diag(*blocks))
    numpy.testing.assert_allclose(
        D.Independent(base, 0).covariance.array, blocks)


@pytest.mark.parametrize('moment, alpha', [('mean', 0.8),
                                           ('variance', 1.5)])
def test_pareto_undefined_moment_has_zero_gradient(moment, alpha):
    """Where a moment is infinite, the branch not taken must not turn the
    gradient into NaN."""
    scale = Variable(numpy.array([1.0, 2.0]))
    alphas = Variable(numpy.array([alpha, 5.0]))
    value = getattr(D.Pareto(scale, alphas), moment)
    assert value.array[0] == numpy.inf
    gscale, galpha = grad([value], [scale, alphas],
                          [Variable(numpy.ones(2))])
    assert numpy.isfinite(gscale.array).all()
    assert numpy.isfinite(galpha.array).all()
    assert gscale.array[0] == galpha.array[0] == 0


def test_uniform_params_follow_the_parametrisation_given():
    loc, scale = arrays(3), arrays(3, seed=1)
    dist = D.Uniform(loc=loc, scale=scale)
    assert sorted(dist.params) == ['loc', 'scale']
    numpy.testing.assert_array_equal(dist.params['scale'].array, scale)
    numpy.testing.assert_array_equal(dist.scale.array, scale)
    low, high = arrays(3, high=1), arrays(3, low=1.5)
    assert sorted(D.Uniform(low=low, high=high).params) == ['high', 'low']


def test_multivariate_normal_no_gradient_above_the_diagonal():
    """A scale_tril trained directly must stay lower triangular."""
    loc = Variable(arrays(2, 3, dtype=numpy.float64))
    tril = Variable(lower_triangular(2, 3).astype(numpy.float64))
    other = Variable(lower_triangular(2, 3, seed=1).astype(numpy.float64))
    dist = D.MultivariateNormal(loc, scale_tril=tril)
    x = arrays(2, 3, seed=2, dtype=numpy.float64)
    g, = grad([D.MultivariateNormal(loc, scale_tril=other).log_prob(x)
               + D.kl_divergence(dist, D.MultivariateNormal(
                   loc, scale_tril=other))], [other],
              [Variable(numpy.ones(2))])
    assert numpy.all(numpy.triu(g.array, 1) == 0)
    assert numpy.all(numpy.diagonal(g.array, 0, 1, 2) != 0)


def test_unregistered_kl_is_a_key_error_as_in_chainer():
    normal = D.Normal(arrays(2), arrays(2))
    laplace = D.Laplace(arrays(2), arrays(2))
    for expected in (KeyError, NotImplementedError):
        with pytest.raises(expected, match='^kl_divergence: no KL'):
            D.kl_divergence(normal, laplace)


def test_categorical_takes_whole_float_class_indices():
    p = numpy.array([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]])
    dist = D.Categorical(p)
    numpy.testing.assert_allclose(
        dist.log_prob(numpy.array([2.0, 0.0])).array,
        numpy.log([0.5, 0.1]))
    with pytest.raises(ValueError, match='fractional'):
        dist.log_prob(numpy.array([0.5, 1.0]))
    with pytest.raises(TypeError, match='integer class indices'):
        dist.log_prob(numpy.array([True, False]))
    with pytest.raises(IndexError, match=r'in \[0, 3\), got values in '
                                         r'\[0, 3\]'):
        dist.log_prob(numpy.array([0, 3]))
