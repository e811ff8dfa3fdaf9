"""Exponential distribution."""
from kusari.autograd import functions as F
from kusari.distributions import distribution
from kusari.distributions import registry
from kusari.distributions import utils


class Exponential(distribution.Distribution):
    """Exponential distribution: density ``lam exp(-lam x)`` for ``x >=
    0``.

    Args:
        lam: Variable or array, the rate (positive).
    """

    def __init__(self, lam):
        self.lam, = utils.parameters('Exponential', lam=(lam, 'positive'))
        self._batch_shape = self.lam.shape

    @property
    def params(self):
        return {'lam': self.lam}

    def log_prob(self, x):
        return utils.log_prob_on_support(
            x, utils.as_array(x) < 0, 0.0,
            lambda x: F.log(self.lam) - self.lam * x)

    def cdf(self, x):
        return -F.expm1(-self.lam * F.relu(utils.as_variable(x)))

    def icdf(self, x):
        return -F.log1p(-utils.as_variable(x)) / self.lam

    @property
    def mean(self):
        return 1 / self.lam

    @property
    def mode(self):
        return utils.full_like(self.lam, 0)

    @property
    def variance(self):
        return self.lam ** -2

    @property
    def stddev(self):
        return 1 / self.lam

    @property
    def entropy(self):
        return 1 - F.log(self.lam)

    @property
    def support(self):
        return 'positive'

    def sample_n(self, n):
        shape = utils.sample_shape(n, self.batch_shape)
        eps = utils.noise(self.xp, 'standard_exponential', shape,
                          self.lam.dtype)
        return eps / self.lam


@registry.register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p, q):
    return F.log(p.lam) - F.log(q.lam) + q.lam / p.lam - 1
