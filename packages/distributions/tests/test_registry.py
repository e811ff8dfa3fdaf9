"""kl_divergence, cross_entropy and register_kl."""
import numpy
import pytest

from kusari import distributions as D
from kusari.distributions import registry

from distribution_builders import arrays

# The analytic pairs Chainer 7.8.1 registers, all of a class with itself.
CHAINER_PAIRS = [
    'Bernoulli', 'Beta', 'Categorical', 'Dirichlet', 'Exponential',
    'Gamma', 'Geometric', 'Gumbel', 'Independent', 'Laplace', 'LogNormal',
    'MultivariateNormal', 'Normal', 'OneHotCategorical', 'Pareto',
    'Poisson', 'Uniform']


def test_the_registered_pairs_are_chainers():
    pairs = sorted((a.__name__, b.__name__)
                   for a, b in registry._KL_DIVERGENCE
                   if a.__module__.startswith('kusari.distributions'))
    assert pairs == [(name, name) for name in CHAINER_PAIRS]


def test_an_unregistered_pair_names_both_classes():
    normal = D.Normal(arrays(2), arrays(2))
    cauchy = D.Cauchy(arrays(2), arrays(2))
    with pytest.raises(NotImplementedError,
                       match='no KL divergence is registered between Normal '
                             'and Cauchy'):
        D.kl_divergence(normal, cauchy)
    with pytest.raises(NotImplementedError, match='Cauchy and Cauchy'):
        D.cross_entropy(cauchy, cauchy)


def test_kl_divergence_of_a_distribution_with_itself_is_zero():
    dist = D.Gamma(arrays(3), arrays(3, seed=1))
    numpy.testing.assert_allclose(D.kl_divergence(dist, dist).array, 0,
                                  atol=1e-6)


def test_cross_entropy_is_entropy_plus_kl():
    p = D.Normal(numpy.array([0.0]), numpy.array([1.0]))
    q = D.Normal(numpy.array([1.0]), numpy.array([2.0]))
    # E_p[-log q(x)] = log(2 sqrt(2 pi)) + (1 + 1) / (2 * 4)
    expected = numpy.log(2 * numpy.sqrt(2 * numpy.pi)) + 0.25
    assert D.cross_entropy(p, q).array[0] == pytest.approx(expected)


def test_register_kl_for_a_new_pair_and_subclasses_inherit():
    class Shifted(D.Normal):
        pass

    class Point(D.Distribution):
        pass

    calls = []

    @D.register_kl(Point, Point)
    def kl_point(p, q):
        calls.append((p, q))
        return 'divergence'

    try:
        first, second = Point(), Point()
        assert D.kl_divergence(first, second) == 'divergence'
        assert calls == [(first, second)]
        # No pair for Shifted: Normal's closed form applies.
        p = Shifted(numpy.zeros(1), numpy.ones(1))
        q = D.Normal(numpy.ones(1), numpy.ones(1))
        assert D.kl_divergence(p, q).array[0] == pytest.approx(0.5)
    finally:
        del registry._KL_DIVERGENCE[Point, Point]


@pytest.mark.parametrize('first, second', [(int, D.Normal),
                                           (D.Normal, 'Normal')])
def test_register_kl_needs_distribution_classes(first, second):
    with pytest.raises(TypeError, match='register_kl: dist[12] must be a '
                                        'Distribution subclass'):
        D.register_kl(first, second)


def test_kl_divergence_needs_distributions():
    with pytest.raises(TypeError, match='kl_divergence: dist2 must be a '
                                        'Distribution, got ndarray'):
        D.kl_divergence(D.Normal(arrays(1), arrays(1)), arrays(1))


def test_independent_pairs_must_reinterpret_alike():
    base = D.Normal(arrays(2, 3), arrays(2, 3))
    with pytest.raises(ValueError, match='reinterpret different numbers of '
                                         'batch axes: 1 and 2'):
        D.kl_divergence(D.Independent(base, 1), D.Independent(base, 2))


def test_kl_divergences_that_are_infinite():
    narrow = D.Uniform(low=numpy.zeros(1), high=numpy.ones(1))
    wide = D.Uniform(low=-numpy.ones(1), high=numpy.ones(1))
    assert D.kl_divergence(wide, narrow).array[0] == numpy.inf
    assert D.kl_divergence(narrow, wide).array[0] == pytest.approx(
        numpy.log(2))
    low = D.Pareto(numpy.ones(1), numpy.ones(1))
    high = D.Pareto(2 * numpy.ones(1), numpy.ones(1))
    assert D.kl_divergence(low, high).array[0] == numpy.inf
    assert numpy.isfinite(D.kl_divergence(high, low).array[0])
