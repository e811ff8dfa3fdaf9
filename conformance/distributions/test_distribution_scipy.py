"""Densities, distribution functions, moments and entropies against
scipy.stats, on random parameters and points."""
import numpy
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate
from scipy import special
from scipy import stats

from harness import strategies
from harness.profiles import conformance_settings

from distributions import distribution_cases as cases
from kusari import distributions as D

DTYPES = (numpy.float64, numpy.float32)
SEEDS = st.integers(0, 2 ** 32 - 1)
BATCH_SHAPES = strategies.shapes(max_dims=2, min_side=1, max_side=3)


def _member_cases():
    return [pytest.param(case, member, dtype,
                         id=f'{case.name}-{member}-{dtype.__name__}')
            for case in cases.CASES for member in case.members
            for dtype in DTYPES + (numpy.float16,)]


def _close(ours, theirs, dtype, what):
    numpy.testing.assert_allclose(ours, theirs, err_msg=what,
                                  **cases.TOLERANCES[dtype])


@pytest.mark.parametrize('case, member, dtype', _member_cases())
@conformance_settings
@given(seed=SEEDS, shape=BATCH_SHAPES)
def test_univariate(case, member, dtype, seed, shape, device):
    rng = numpy.random.default_rng(seed)
    params = {name: value.astype(dtype).astype(numpy.float64)
              for name, value in cases.draw_params(case, rng, shape).items()}
    if member == 'icdf':
        point = rng.uniform(0.02, 0.98, shape)
    else:
        point = case.points(rng, params, shape)
    point = point.astype(dtype).astype(numpy.float64)
    dist = case.make(**{name: device.send(value.astype(dtype))
                        for name, value in params.items()})
    ours = cases.kusari_value(dist, member, device.send(point.astype(dtype)))
    assert ours.dtype == dtype, f'{case.name}.{member}: dtype {ours.dtype}'
    theirs = cases.scipy_value(case, case.scipy(**params), member, point)
    _close(ours, numpy.broadcast_to(theirs, shape), dtype,
           f'{case.name}.{member} at {point} with {params}')


@pytest.mark.parametrize('dtype', DTYPES)
@conformance_settings
@given(seed=SEEDS, k=st.integers(2, 4), batch=st.integers(1, 3))
def test_dirichlet(dtype, seed, k, batch, device):
    rng = numpy.random.default_rng(seed)
    alpha = rng.uniform(0.5, 3, (batch, k)).astype(dtype)
    x = rng.dirichlet(numpy.ones(k), batch).astype(dtype)
    dist = D.Dirichlet(device.send(alpha))
    for i in range(batch):
        frozen = stats.dirichlet(alpha[i].astype(numpy.float64))
        point = x[i].astype(numpy.float64)
        _close(cases.to_host(dist.log_prob(device.send(x)))[i],
               frozen.logpdf(point / point.sum()), dtype, 'log_prob')
        for member in cases.PROPERTIES:
            _close(cases.kusari_value(dist, member, None)[i],
                   cases.scipy_value(None, frozen, member, None), dtype,
                   member)


@pytest.mark.parametrize('dtype', DTYPES)
@conformance_settings
@given(seed=SEEDS, d=st.integers(1, 4), batch=st.integers(1, 3))
def test_multivariate_normal(dtype, seed, d, batch, device):
    rng = numpy.random.default_rng(seed)
    loc = rng.normal(size=(batch, d))
    root = rng.normal(size=(batch, d, d))
    tril = numpy.linalg.cholesky(
        root @ root.transpose(0, 2, 1) + numpy.eye(d))
    x = rng.normal(size=(2, batch, d))
    dist = D.MultivariateNormal(device.send(loc.astype(dtype)),
                                scale_tril=device.send(tril.astype(dtype)))
    log_prob = cases.to_host(dist.log_prob(device.send(x.astype(dtype))))
    for i in range(batch):
        cov = tril[i] @ tril[i].T
        frozen = stats.multivariate_normal(loc[i], cov)
        _close(log_prob[:, i], frozen.logpdf(x[:, i]), dtype, 'log_prob')
        _close(cases.to_host(dist.entropy)[i], frozen.entropy(), dtype,
               'entropy')
        _close(cases.to_host(dist.covariance)[i], cov, dtype, 'covariance')
        _close(cases.to_host(dist.variance)[i], numpy.diag(cov), dtype,
               'variance')


@pytest.mark.parametrize('logit', [False, True])
@pytest.mark.parametrize('dtype', DTYPES)
@conformance_settings
@given(seed=SEEDS, k=st.integers(2, 5), batch=st.integers(1, 3))
def test_categorical(dtype, logit, seed, k, batch, device):
    rng = numpy.random.default_rng(seed)
    p = rng.dirichlet(numpy.ones(k), batch)
    given_p = device.send(
        (numpy.log(p) + rng.normal() if logit else p).astype(dtype))
    dist = D.Categorical(logit=given_p) if logit else D.Categorical(given_p)
    one_hot = D.OneHotCategorical(device.send(p.astype(dtype)))
    x = rng.integers(0, k, (3, batch))
    expected = numpy.log(numpy.take_along_axis(
        numpy.broadcast_to(p, (3, batch, k)), x[..., None], -1)[..., 0])
    _close(cases.to_host(dist.log_prob(device.send(x))), expected, dtype,
           'Categorical.log_prob')
    _close(cases.to_host(one_hot.log_prob(device.send(
        numpy.eye(k, dtype=dtype)[x]))), expected, dtype,
        'OneHotCategorical.log_prob')
    entropy = stats.entropy(p, axis=-1)
    _close(cases.to_host(dist.entropy), entropy, dtype, 'entropy')
    _close(cases.to_host(one_hot.entropy), entropy, dtype, 'entropy')
    _close(cases.to_host(one_hot.mean), p, dtype, 'mean')
    _close(cases.to_host(one_hot.variance), p * (1 - p), dtype, 'variance')


@conformance_settings
@given(seed=SEEDS, shape=strategies.shapes(min_dims=1, max_dims=3,
                                           min_side=1, max_side=3),
       data=st.data())
def test_independent(seed, shape, data, device):
    reinterpreted = data.draw(st.integers(0, len(shape)))
    rng = numpy.random.default_rng(seed)
    loc, scale = rng.normal(size=shape), rng.uniform(0.5, 2, shape)
    x = rng.normal(size=shape)
    dist = D.Independent(
        D.Normal(device.send(loc), device.send(scale)), reinterpreted)
    axes = tuple(range(len(shape) - reinterpreted, len(shape)))
    frozen = stats.norm(loc, scale)
    _close(cases.to_host(dist.log_prob(device.send(x))),
           frozen.logpdf(x).sum(axis=axes), numpy.float64, 'log_prob')
    _close(cases.to_host(dist.cdf(device.send(x))),
           frozen.cdf(x).prod(axis=axes), numpy.float64, 'cdf')
    _close(cases.to_host(dist.entropy), frozen.entropy().sum(axis=axes),
           numpy.float64, 'entropy')
    _close(cases.to_host(dist.variance), frozen.var(), numpy.float64,
           'variance')


@pytest.mark.parametrize('case', [pytest.param(case, id=case.name)
                                  for case in cases.KL_CASES])
@conformance_settings
@given(seed=SEEDS)
def test_kl_divergence(case, seed, device):
    """The closed form against E_p[log p(x) - log q(x)] integrated (or
    summed) by scipy from its own densities."""
    rng = numpy.random.default_rng(seed)
    p_params, q_params = cases.draw_kl_params(case, rng, (2,))
    p = case.make(**{n: device.send(v) for n, v in p_params.items()})
    q = case.make(**{n: device.send(v) for n, v in q_params.items()})
    ours = cases.to_host(D.kl_divergence(p, q))
    for i in range(2):
        p_i = case.scipy(**{n: v[i] for n, v in p_params.items()})
        q_i = case.scipy(**{n: v[i] for n, v in q_params.items()})
        numpy.testing.assert_allclose(
            ours[i], _expected_log_ratio(p_i, q_i, case.discrete),
            rtol=1e-6, atol=1e-8, err_msg=case.name)


def _expected_log_ratio(p, q, discrete):
    """E_p[log p(x) - log q(x)] from scipy's densities, over all but
    1e-13 of p's mass at each end."""
    if discrete:
        x = numpy.arange(p.support()[0], p.isf(1e-15) + 1)
        return numpy.sum(p.pmf(x) * (p.logpmf(x) - q.logpmf(x)))
    low, high = p.ppf(1e-13), p.isf(1e-13)
    # Kinks (Laplace's) sit at the medians: split the integral there.
    kinks = [m for m in (p.median(), q.median()) if low < m < high]
    value, _ = integrate.quad(
        lambda x: p.pdf(x) * (p.logpdf(x) - q.logpdf(x)), low, high,
        points=kinks or None, limit=200, epsabs=1e-12, epsrel=1e-10)
    return value


def _mvn_kl(loc1, cov1, loc2, cov2):
    inverse = numpy.linalg.inv(cov2)
    delta = loc2 - loc1
    return 0.5 * (numpy.trace(inverse @ cov1) + delta @ inverse @ delta
                  - len(loc1) + numpy.linalg.slogdet(cov2)[1]
                  - numpy.linalg.slogdet(cov1)[1])


def _dirichlet_kl(alpha, beta):
    a0 = alpha.sum()
    return (special.gammaln(a0) - special.gammaln(alpha).sum()
            - special.gammaln(beta.sum()) + special.gammaln(beta).sum()
            + ((alpha - beta) * (special.digamma(alpha)
                                 - special.digamma(a0))).sum())


@conformance_settings
@given(seed=SEEDS, k=st.integers(2, 4))
def test_kl_divergence_multivariate(seed, k, device):
    """Closed forms against scipy (categorical) and NumPy's linear
    algebra (normal), per batch element."""
    rng = numpy.random.default_rng(seed)
    p, q = (rng.dirichlet(numpy.ones(k), 2) for _ in range(2))
    for cls in (D.Categorical, D.OneHotCategorical):
        _close(cases.to_host(D.kl_divergence(cls(device.send(p)),
                                             cls(device.send(q)))),
               stats.entropy(p, q, axis=-1), numpy.float64, cls.__name__)
    alpha, beta = rng.uniform(0.5, 3, (2, 2, k))
    _close(cases.to_host(D.kl_divergence(D.Dirichlet(device.send(alpha)),
                                         D.Dirichlet(device.send(beta)))),
           [_dirichlet_kl(a, b) for a, b in zip(alpha, beta)],
           numpy.float64, 'Dirichlet')
    locs = rng.normal(size=(2, 2, k))
    roots = rng.normal(size=(2, 2, k, k))
    covs = roots @ numpy.swapaxes(roots, -1, -2) + numpy.eye(k)
    p, q = (D.MultivariateNormal(device.send(loc), scale_tril=device.send(
        numpy.linalg.cholesky(cov))) for loc, cov in zip(locs, covs))
    _close(cases.to_host(D.kl_divergence(p, q)),
           [_mvn_kl(locs[0, i], covs[0, i], locs[1, i], covs[1, i])
            for i in range(2)], numpy.float64, 'MultivariateNormal')
    diagonal = [D.Independent(D.Normal(device.send(loc), device.send(
        numpy.sqrt(numpy.diagonal(cov, 0, -2, -1))))) for loc, cov in
        zip(locs, covs)]
    _close(cases.to_host(D.kl_divergence(*diagonal)),
           [_mvn_kl(locs[0, i], numpy.diag(numpy.diag(covs[0, i])),
                    locs[1, i], numpy.diag(numpy.diag(covs[1, i])))
            for i in range(2)], numpy.float64, 'Independent')
