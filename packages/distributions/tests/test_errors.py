"""Bad input is refused before any state is built, with errors naming the
distribution, the parameter, what was expected and what came."""
import numpy
import pytest

from kusari import distributions as D
from kusari.autograd import Variable

from distribution_builders import arrays

ONES = numpy.ones(3, numpy.float32)
NEGATIVE = -ONES


@pytest.mark.parametrize('build, message', [
    (lambda: D.Normal(ONES, NEGATIVE), 'Normal: scale must be positive'),
    (lambda: D.Laplace(ONES, NEGATIVE), 'Laplace: scale must be positive'),
    (lambda: D.Cauchy(ONES, 0 * ONES), 'Cauchy: scale must be positive'),
    (lambda: D.Gumbel(ONES, NEGATIVE), 'Gumbel: scale must be positive'),
    (lambda: D.LogNormal(ONES, NEGATIVE),
     'LogNormal: sigma must be positive'),
    (lambda: D.Exponential(NEGATIVE), 'Exponential: lam must be positive'),
    (lambda: D.Poisson(NEGATIVE), 'Poisson: lam must be positive'),
    (lambda: D.Gamma(NEGATIVE, ONES), 'Gamma: k must be positive'),
    (lambda: D.Gamma(ONES, NEGATIVE), 'Gamma: theta must be positive'),
    (lambda: D.Chisquare(NEGATIVE), 'Chisquare: k must be positive'),
    (lambda: D.Beta(ONES, NEGATIVE), 'Beta: b must be positive'),
    (lambda: D.Dirichlet(NEGATIVE), 'Dirichlet: alpha must be positive'),
    (lambda: D.Pareto(NEGATIVE, ONES), 'Pareto: scale must be positive'),
    (lambda: D.Pareto(ONES, NEGATIVE), 'Pareto: alpha must be positive'),
    (lambda: D.Bernoulli(ONES * 1.5),
     r'Bernoulli: p must be in \[0, 1\], got 1.5'),
    (lambda: D.Geometric(0 * ONES),
     r'Geometric: p must be in \(0, 1\], got 0.0'),
    (lambda: D.Categorical(NEGATIVE), r'Categorical: p must be in \[0, 1\]'),
    (lambda: D.OneHotCategorical(NEGATIVE),
     r'Categorical: p must be in \[0, 1\]'),
    (lambda: D.Uniform(low=ONES, high=ONES),
     'Uniform: high - low must be positive'),
    (lambda: D.Uniform(loc=ONES, scale=NEGATIVE),
     'Uniform: scale must be positive'),
    (lambda: D.Normal(ONES, numpy.array([1.0, numpy.nan, 1.0],
                                        numpy.float32)),
     'Normal: scale must be positive, got nan'),
])
def test_parameters_out_of_their_domain(build, message):
    with pytest.raises(ValueError, match=message):
        build()


@pytest.mark.parametrize('build, message', [
    (lambda: D.Normal(ONES), 'Normal: give exactly one of scale or '
                             'log_scale, got 0'),
    (lambda: D.Normal(ONES, ONES, log_scale=ONES),
     'Normal: give exactly one of scale or log_scale, got 2'),
    (lambda: D.Bernoulli(), 'Bernoulli: give exactly one of p or logit'),
    (lambda: D.Bernoulli(ONES / 2, ONES),
     'Bernoulli: give exactly one of p or logit'),
    (lambda: D.Categorical(), 'Categorical: give exactly one of p or logit'),
    (lambda: D.Uniform(low=ONES), 'Uniform: give either low and high, or '
                                  'loc and scale'),
    (lambda: D.Uniform(low=ONES, high=ONES, scale=ONES),
     'Uniform: give either low and high'),
    (lambda: D.MultivariateNormal(ONES), 'MultivariateNormal: scale_tril '
                                         'must be given'),
])
def test_parameterisations_to_choose_from(build, message):
    with pytest.raises(ValueError, match=message):
        build()


def test_batch_shapes_that_do_not_broadcast():
    with pytest.raises(ValueError, match=r'Normal: the parameters do not '
                       r'broadcast to one batch shape: loc \(3,\), scale '
                       r'\(2,\)'):
        D.Normal(ONES, numpy.ones(2, numpy.float32))
    with pytest.raises(ValueError, match='Gamma: the parameters do not '
                                         'broadcast'):
        D.Gamma(numpy.ones((2, 3)), numpy.ones((4, 1)))


def test_multivariate_normal_shapes_and_factor():
    with pytest.raises(ValueError, match=r'MultivariateNormal: loc must end '
                       r'with an axis of size d and scale_tril with two of '
                       r'size d; got loc \(3,\) and scale_tril \(2, 2\)'):
        D.MultivariateNormal(ONES, scale_tril=numpy.eye(2, dtype='f'))
    upper = numpy.eye(3, dtype=numpy.float32)
    upper[0, 2] = 1
    with pytest.raises(ValueError, match='must be lower triangular'):
        D.MultivariateNormal(ONES, scale_tril=upper)
    with pytest.raises(ValueError, match='the diagonal of scale_tril must '
                                         'be positive, got -1.0'):
        D.MultivariateNormal(ONES, scale_tril=-numpy.eye(3, dtype='f'))


def test_types_of_parameters():
    with pytest.raises(TypeError, match='Normal: loc must be a Variable or '
                                        'an array, got list'):
        D.Normal([0.0], ONES)
    with pytest.raises(TypeError, match='Poisson: lam must be of a float '
                                        'dtype, got int64'):
        D.Poisson(numpy.array([1, 2]))
    with pytest.raises(TypeError, match='Normal: the parameters must share '
                                        'one dtype, got loc float64, scale '
                                        'float32'):
        D.Normal(numpy.zeros(3), ONES)


def test_categorical_needs_an_axis_of_classes_and_integer_indices():
    with pytest.raises(ValueError, match='Categorical: p must have at '
                                         'least one axis'):
        D.Categorical(numpy.ones((), numpy.float32))
    with pytest.raises(ValueError, match='Dirichlet: alpha must have at '
                                         'least one axis'):
        D.Dirichlet(numpy.ones((), numpy.float32))
    dist = D.Categorical(ONES / 3)
    with pytest.raises(TypeError, match='Categorical.log_prob: x must hold '
                                        'integer class indices, got dtype '
                                        'bool'):
        dist.log_prob(numpy.zeros(2, bool))
    with pytest.raises(ValueError, match='Categorical.log_prob: x must hold '
                                         'class indices; its float values'):
        dist.log_prob(numpy.full(2, 0.5, numpy.float32))


def test_independent_arguments():
    base = D.Normal(arrays(2, 3), arrays(2, 3))
    with pytest.raises(ValueError, match=r'Independent: '
                       r'reinterpreted_batch_ndims must be in \[0, 2\] for a '
                       r'distribution of batch_shape \(2, 3\), got 3'):
        D.Independent(base, 3)
    with pytest.raises(TypeError, match='Independent: distribution must be '
                                        'a Distribution, got ndarray'):
        D.Independent(ONES)


@pytest.mark.parametrize('n', [-1, 1.5, True])
def test_sample_n_needs_a_count(n):
    with pytest.raises(ValueError, match='sample_n: n must be a '
                                         'non-negative int'):
        D.Normal(ONES, ONES).sample_n(n)


def test_a_refused_parameter_leaves_the_variable_untouched():
    scale = Variable(NEGATIVE.copy())
    with pytest.raises(ValueError):
        D.Normal(ONES, scale)
    assert scale.creator is None
    numpy.testing.assert_array_equal(scale.array, NEGATIVE)
