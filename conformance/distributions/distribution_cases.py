"""One record per distribution: how to build it, its scipy.stats twin,
where its parameters and points are drawn, and which members to compare.

The parameter and point ranges keep away from where a float64 finite
difference or a float32 density loses its digits.
"""
import dataclasses

import numpy
from scipy import stats

from kusari import distributions as D
from kusari.array import backend


@dataclasses.dataclass(frozen=True)
class Case:
    """How to test one distribution.

    ``params`` maps each parameter to its ``(low, high)`` range; ``make``
    builds the distribution from them and ``scipy`` its frozen
    scipy.stats twin (from float64 arrays); ``points(rng, params, shape)``
    draws points of the support. ``members`` are compared with scipy,
    ``reparameterised`` names the parameters a draw is differentiable in.
    """

    name: str
    params: dict
    make: object
    scipy: object
    points: object
    members: tuple = ('log_prob', 'mean', 'variance', 'entropy')
    reparameterised: tuple = ()
    discrete: bool = False


def _uniform_points(low, high):
    return lambda rng, params, shape: rng.uniform(low, high, shape)


def _between(low_name, high_name, margin=0.0):
    """Points inside ``(params[low_name], params[high_name])``."""
    def draw(rng, params, shape):
        low, high = params[low_name], params[high_name]
        u = rng.uniform(margin, 1 - margin, shape)
        return low + u * (high - low)
    return draw


def _above(name, spread):
    return lambda rng, params, shape: params[name] + rng.uniform(
        0.01, spread, shape)


def _integers(low, high):
    return lambda rng, params, shape: rng.integers(
        low, high, shape).astype(numpy.float64)


_UNIVARIATE = ('log_prob', 'cdf', 'icdf', 'mean', 'variance', 'entropy')

CASES = [
    Case('Normal', {'loc': (-2, 2), 'scale': (0.5, 2)},
         lambda loc, scale: D.Normal(loc, scale),
         lambda loc, scale: stats.norm(loc, scale),
         _uniform_points(-3, 3),
         _UNIVARIATE + ('log_cdf', 'survival_function',
                        'log_survival_function'),
         reparameterised=('loc', 'scale')),
    Case('Normal:log_scale', {'loc': (-2, 2), 'log_scale': (-0.7, 0.7)},
         lambda loc, log_scale: D.Normal(loc, log_scale=log_scale),
         lambda loc, log_scale: stats.norm(loc, numpy.exp(log_scale)),
         _uniform_points(-3, 3), _UNIVARIATE,
         reparameterised=('loc', 'log_scale')),
    Case('LogNormal', {'mu': (-1, 1), 'sigma': (0.3, 1)},
         lambda mu, sigma: D.LogNormal(mu, sigma),
         lambda mu, sigma: stats.lognorm(sigma, scale=numpy.exp(mu)),
         _uniform_points(0.1, 4), _UNIVARIATE,
         reparameterised=('mu', 'sigma')),
    Case('Laplace', {'loc': (-2, 2), 'scale': (0.5, 2)},
         lambda loc, scale: D.Laplace(loc, scale),
         lambda loc, scale: stats.laplace(loc, scale),
         _uniform_points(-3, 3), _UNIVARIATE,
         reparameterised=('loc', 'scale')),
    Case('Cauchy', {'loc': (-2, 2), 'scale': (0.5, 2)},
         lambda loc, scale: D.Cauchy(loc, scale),
         lambda loc, scale: stats.cauchy(loc, scale),
         _uniform_points(-3, 3), ('log_prob', 'cdf', 'icdf', 'entropy'),
         reparameterised=('loc', 'scale')),
    Case('Gumbel', {'loc': (-2, 2), 'scale': (0.5, 2)},
         lambda loc, scale: D.Gumbel(loc, scale),
         lambda loc, scale: stats.gumbel_r(loc, scale),
         _uniform_points(-2, 4), _UNIVARIATE,
         reparameterised=('loc', 'scale')),
    Case('Exponential', {'lam': (0.5, 3)},
         lambda lam: D.Exponential(lam),
         lambda lam: stats.expon(scale=1 / lam),
         _uniform_points(0.05, 3), _UNIVARIATE,
         reparameterised=('lam',)),
    Case('Uniform', {'low': (-2, 0), 'high': (0.5, 2)},
         lambda low, high: D.Uniform(low=low, high=high),
         lambda low, high: stats.uniform(low, high - low),
         _between('low', 'high', 0.05), _UNIVARIATE,
         reparameterised=('low', 'high')),
    Case('Pareto', {'scale': (0.5, 2), 'alpha': (2.5, 5)},
         lambda scale, alpha: D.Pareto(scale, alpha),
         lambda scale, alpha: stats.pareto(alpha, scale=scale),
         _above('scale', 3), _UNIVARIATE,
         reparameterised=('scale', 'alpha')),
    Case('Gamma', {'k': (0.8, 4), 'theta': (0.5, 2)},
         lambda k, theta: D.Gamma(k, theta),
         lambda k, theta: stats.gamma(k, scale=theta),
         _uniform_points(0.1, 5), reparameterised=('theta',)),
    Case('Chisquare', {'k': (1.5, 6)},
         lambda k: D.Chisquare(k),
         lambda k: stats.chi2(k),
         _uniform_points(0.1, 8)),
    Case('Beta', {'a': (0.8, 4), 'b': (0.8, 4)},
         lambda a, b: D.Beta(a, b),
         lambda a, b: stats.beta(a, b),
         _uniform_points(0.05, 0.95)),
    Case('Poisson', {'lam': (0.5, 6)},
         lambda lam: D.Poisson(lam),
         lambda lam: stats.poisson(lam),
         _integers(0, 10), ('log_prob', 'mean', 'variance'),
         discrete=True),
    Case('Geometric', {'p': (0.1, 0.9)},
         lambda p: D.Geometric(p),
         lambda p: stats.geom(p),
         _integers(1, 10), discrete=True),
    Case('Bernoulli', {'p': (0.05, 0.95)},
         lambda p: D.Bernoulli(p),
         lambda p: stats.bernoulli(p),
         _integers(0, 2), discrete=True),
    Case('Bernoulli:logit', {'logit': (-3, 3)},
         lambda logit: D.Bernoulli(logit=logit),
         lambda logit: stats.bernoulli(1 / (1 + numpy.exp(-logit))),
         _integers(0, 2), discrete=True),
]

BY_NAME = {case.name: case for case in CASES}


def draw_params(case, rng, shape):
    """float64 parameter arrays of ``shape`` in the case's ranges."""
    return {name: rng.uniform(low, high, shape)
            for name, (low, high) in case.params.items()}


# Our member -> scipy's frozen-distribution method.
SCIPY_NAMES = {'cdf': 'cdf', 'icdf': 'ppf', 'log_cdf': 'logcdf',
               'survival_function': 'sf', 'log_survival_function': 'logsf',
               'mean': 'mean', 'variance': 'var', 'entropy': 'entropy'}
PROPERTIES = ('mean', 'variance', 'entropy')

# Forward tolerances against scipy, per dtype under test.
TOLERANCES = {numpy.float64: {'rtol': 1e-7, 'atol': 1e-9},
              numpy.float32: {'rtol': 2e-4, 'atol': 2e-5},
              # Half precision keeps about three digits.
              numpy.float16: {'rtol': 3e-2, 'atol': 3e-2}}
_HOST = backend.CpuDevice()


def to_host(x):
    """The host (NumPy) array of a Variable or an array."""
    return _HOST.send_array(getattr(x, 'array', x))


def scipy_value(case, frozen, member, argument):
    """What scipy says ``member`` is (at ``argument`` for functions)."""
    if member == 'log_prob':
        return (frozen.logpmf if case.discrete else frozen.logpdf)(argument)
    method = getattr(frozen, SCIPY_NAMES[member])
    return method() if member in PROPERTIES else method(argument)


def kusari_value(dist, member, argument):
    """``dist.member`` (called with ``argument`` for functions), on the
    host."""
    value = getattr(dist, member)
    return to_host(value if member in PROPERTIES else value(argument))


def seeded(device, seed=0):
    """Seed the random module of ``device``: draws are then repeatable."""
    device.xp.random.seed(seed)


# Parameter ranges of (p, q) for KL checks where KL(p || q) is finite only
# for some pairs: p's support must lie inside q's.
KL_RANGES = {
    'Uniform': ({'low': (-1, -0.1), 'high': (0.5, 1)},
                {'low': (-2, -1.1), 'high': (1.1, 2)}),
    'Pareto': ({'scale': (1.1, 2), 'alpha': (2.5, 5)},
               {'scale': (0.5, 1), 'alpha': (2.5, 5)}),
}
# Those without a closed-form KL divergence in Chainer 7.
NO_KL = ('Cauchy', 'Chisquare')
KL_CASES = [case for case in CASES if case.name not in NO_KL]


def draw_kl_params(case, rng, shape):
    """Parameters of p and of q for a KL check of ``case``."""
    ranges = KL_RANGES.get(case.name, (case.params, case.params))
    return tuple({name: rng.uniform(low, high, shape)
                  for name, (low, high) in side.items()}
                 for side in ranges)
