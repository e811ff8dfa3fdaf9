"""Gamma distribution."""
from kusari.autograd import functions as F
from kusari.distributions import distribution
from kusari.distributions import registry
from kusari.distributions import utils


def log_density(x, k, log_theta, theta):
    """Log density at ``x > 0`` of a Gamma of shape ``k`` and scale
    ``theta``."""
    return (-F.lgamma(k) - k * log_theta + (k - 1) * F.log(x) - x / theta)


def entropy(k, log_theta):
    """Entropy of a Gamma of shape ``k`` and scale ``exp(log_theta)``."""
    return k + log_theta + F.lgamma(k) + (1 - k) * F.digamma(k)


def standard_gamma(xp, k, shape):
    """Draws of shape ``shape`` of unit-scale Gammas of shape ``k`` (an
    array broadcasting to it)."""
    return xp.random.standard_gamma(xp.broadcast_to(k, shape)).astype(
        k.dtype, copy=False)


def log_prob_positive(x, log_density):
    """``log_density`` on ``x > 0``, ``-inf`` elsewhere."""
    return utils.log_prob_on_support(x, utils.as_array(x) <= 0, 1.0,
                                     log_density)


class Gamma(distribution.Distribution):
    """Gamma distribution: density ``x^(k-1) exp(-x / theta) / (Gamma(k)
    theta^k)``.

    Samples are reparameterised with respect to ``theta`` only.

    Args:
        k: Variable or array, the shape (positive).
        theta: Variable or array, the scale (positive).
    """

    def __init__(self, k, theta):
        self.k, self.theta = utils.parameters(
            'Gamma', k=(k, 'positive'), theta=(theta, 'positive'))
        self._batch_shape = self.k.shape

    @property
    def params(self):
        return {'k': self.k, 'theta': self.theta}

    def log_prob(self, x):
        return log_prob_positive(x, lambda x: log_density(
            x, self.k, F.log(self.theta), self.theta))

    @property
    def mean(self):
        return self.k * self.theta

    @property
    def variance(self):
        return self.k * self.theta ** 2

    @property
    def entropy(self):
        return entropy(self.k, F.log(self.theta))

    @property
    def support(self):
        return 'positive'

    def sample_n(self, n):
        shape = utils.sample_shape(n, self.batch_shape)
        return self.theta * standard_gamma(self.xp, self.k.array, shape)


@registry.register_kl(Gamma, Gamma)
def _kl_gamma_gamma(p, q):
    return ((p.k - q.k) * F.digamma(p.k) - F.lgamma(p.k) + F.lgamma(q.k)
            + q.k * (F.log(q.theta) - F.log(p.theta))
            + p.k * (p.theta - q.theta) / q.theta)
