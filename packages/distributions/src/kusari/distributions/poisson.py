"""Poisson distribution."""
from kusari.autograd import functions as F
from kusari.distributions import distribution
from kusari.distributions import registry
from kusari.distributions import utils


class Poisson(distribution.Distribution):
    """Poisson distribution: ``P(x) = lam^x exp(-lam) / x!``.

    Args:
        lam: Variable or array, the rate (positive).
    """

    def __init__(self, lam):
        self.lam, = utils.parameters('Poisson', lam=(lam, 'positive'))
        self._batch_shape = self.lam.shape

    @property
    def params(self):
        return {'lam': self.lam}

    def log_prob(self, x):
        x = utils.as_float(x, self.lam.dtype)
        return x * F.log(self.lam) - self.lam - F.lgamma(x + 1)

    @property
    def mean(self):
        return self.lam

    @property
    def variance(self):
        return self.lam

    @property
    def support(self):
        return 'non negative integer'

    def sample_n(self, n):
        shape = utils.sample_shape(n, self.batch_shape)
        draws = self.xp.random.poisson(self.lam.array, size=shape)
        return utils.constant(draws.astype(self.lam.dtype))


@registry.register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p, q):
    return p.lam * (F.log(p.lam) - F.log(q.lam)) - p.lam + q.lam
