"""Draws: their statistics against the distribution's own moments and
quantiles, and KL divergences against Monte Carlo estimates from them.

Every check seeds the device's random module, and its tolerance is six
standard errors of the estimate at the sample size, so a correct
implementation fails with a probability below 1e-8 and the fixed seed
makes each run repeat the last.
"""
import numpy
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from harness.profiles import conformance_settings
from kusari import distributions as D
from kusari.autograd import no_backprop_mode

from distributions import distribution_cases as cases

DRAWS = 20000
SHAPE = (3,)
SEEDS = st.integers(0, 2 ** 32 - 1)


def _assert_within(estimate, expected, standard_error, what):
    gap = numpy.abs(estimate - expected)
    bound = 6 * standard_error + 1e-12
    assert numpy.all(gap <= bound), (
        f'{what}: estimate {estimate}, expected {expected}, '
        f'{gap / numpy.maximum(standard_error, 1e-300)} standard errors '
        f'away')


def _draws(dist, device, seed):
    cases.seeded(device, seed)
    with no_backprop_mode():
        return cases.to_host(dist.sample(DRAWS)).astype(numpy.float64)


def _built(case, rng, device):
    params = cases.draw_params(case, rng, SHAPE)
    dist = case.make(**{n: device.send(v) for n, v in params.items()})
    return dist, case.scipy(**params)


@pytest.mark.parametrize('case', [pytest.param(case, id=case.name)
                                  for case in cases.CASES])
@conformance_settings
@given(seed=SEEDS)
def test_moments_and_quantiles(case, seed, device):
    rng = numpy.random.default_rng(seed)
    dist, frozen = _built(case, rng, device)
    x = _draws(dist, device, seed)
    assert x.shape == (DRAWS,) + SHAPE
    _, variance, _, kurtosis = frozen.stats(moments='mvsk')
    if numpy.all(numpy.isfinite(variance)):
        _assert_within(x.mean(axis=0), cases.to_host(dist.mean),
                       numpy.sqrt(variance / DRAWS), f'{case.name} mean')
    if numpy.all(numpy.isfinite(kurtosis)):
        fourth = (kurtosis + 3) * variance ** 2
        _assert_within(x.var(axis=0), variance,
                       numpy.sqrt((fourth - variance ** 2) / DRAWS),
                       f'{case.name} variance')
    if not case.discrete:
        # P(X <= the q-quantile) = q, for any distribution: heavy tails too.
        for q in (0.1, 0.5, 0.9):
            _assert_within((x <= frozen.ppf(q)).mean(axis=0), q,
                           numpy.sqrt(q * (1 - q) / DRAWS),
                           f'{case.name} {q}-quantile')


@pytest.mark.parametrize('case', [pytest.param(case, id=case.name)
                                  for case in cases.KL_CASES])
@conformance_settings
@given(seed=SEEDS)
def test_kl_against_monte_carlo(case, seed, device):
    rng = numpy.random.default_rng(seed)
    p_params, q_params = cases.draw_kl_params(case, rng, SHAPE)
    p = case.make(**{n: device.send(v) for n, v in p_params.items()})
    q = case.make(**{n: device.send(v) for n, v in q_params.items()})
    _check_kl(p, q, device, seed, case.name)


def _check_kl(p, q, device, seed, what):
    """KL(p || q) against the mean of log p(x) - log q(x) over draws of
    p."""
    cases.seeded(device, seed)
    with no_backprop_mode():
        x = p.sample(DRAWS)
        ratio = cases.to_host(p.log_prob(x) - q.log_prob(x))
        closed_form = cases.to_host(D.kl_divergence(p, q))
    _assert_within(ratio.mean(axis=0), closed_form,
                   ratio.std(axis=0) / numpy.sqrt(DRAWS), f'{what} KL')


def _simplex(rng, k, shape):
    p = rng.dirichlet(numpy.ones(k), shape) + 0.1
    return p / p.sum(axis=-1, keepdims=True)


def _multivariate_normal(rng, device, d):
    root = rng.normal(size=SHAPE + (d, d))
    tril = numpy.linalg.cholesky(root @ root.transpose(0, 2, 1)
                                 + numpy.eye(d))
    return D.MultivariateNormal(device.send(rng.normal(size=SHAPE + (d,))),
                                scale_tril=device.send(tril))


MULTIVARIATE = {
    'MultivariateNormal': _multivariate_normal,
    'Dirichlet': lambda rng, device, k: D.Dirichlet(
        device.send(rng.uniform(0.5, 3, SHAPE + (k,)))),
    'Categorical': lambda rng, device, k: D.Categorical(
        device.send(_simplex(rng, k, SHAPE))),
    'OneHotCategorical': lambda rng, device, k: D.OneHotCategorical(
        device.send(_simplex(rng, k, SHAPE))),
    'Independent': lambda rng, device, k: D.Independent(D.Normal(
        device.send(rng.normal(size=SHAPE + (k,))),
        device.send(rng.uniform(0.5, 2, SHAPE + (k,))))),
}


@pytest.mark.parametrize('name', sorted(MULTIVARIATE))
@conformance_settings
@given(seed=SEEDS, k=st.integers(2, 4))
def test_multivariate(name, seed, k, device):
    rng = numpy.random.default_rng(seed)
    p = MULTIVARIATE[name](rng, device, k)
    q = MULTIVARIATE[name](rng, device, k)
    _check_kl(p, q, device, seed, name)
    x = _draws(p, device, seed)
    assert x.shape == (DRAWS,) + p.batch_shape + p.event_shape
    if name == 'Categorical':
        # Class frequencies, each a Bernoulli mean.
        x = numpy.eye(k)[x.astype(int)]
        mean = cases.to_host(p.p)
        variance = mean * (1 - mean)
    else:
        mean = cases.to_host(p.mean)
        variance = cases.to_host(p.variance)
    _assert_within(x.mean(axis=0), mean, numpy.sqrt(variance / DRAWS),
                   f'{name} mean')
    if name == 'MultivariateNormal':
        covariance = cases.to_host(p.covariance)
        centred = x - x.mean(axis=0)
        estimate = numpy.einsum('nbi,nbj->bij', centred, centred) / DRAWS
        diagonal = numpy.diagonal(covariance, 0, -2, -1)
        # Var of a product of centred normals: s_ii s_jj + s_ij^2.
        error = numpy.sqrt((diagonal[..., :, None] * diagonal[..., None, :]
                            + covariance ** 2) / DRAWS)
        _assert_within(estimate, covariance, error, f'{name} covariance')


def test_dirichlet_marginals_are_beta(device):
    """A Dirichlet's first coordinate is Beta(alpha_1, sum of the rest)."""
    alpha = numpy.array([[1.5, 0.7, 2.0]])
    x = _draws(D.Dirichlet(device.send(alpha)), device, 0)[:, 0, 0]
    statistic = stats.kstest(x, stats.beta(1.5, 2.7).cdf).statistic
    # The Kolmogorov-Smirnov 1e-8 critical value at this size.
    assert statistic < numpy.sqrt(-numpy.log(1e-8 / 2) / (2 * DRAWS))
