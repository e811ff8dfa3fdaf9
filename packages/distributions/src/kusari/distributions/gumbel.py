"""Gumbel (type I extreme value) distribution."""
import math

from kusari.autograd import functions as F
from kusari.distributions import registry
from kusari.distributions import utils


class Gumbel(utils.LocationScale):
    """Gumbel distribution: cdf ``exp(-exp(-(x - loc) / scale))``.

    Args:
        loc: Variable or array, the location (the mode).
        scale: Variable or array, the scale (positive).
    """

    _noise = 'gumbel'

    def log_prob(self, x):
        z = self._standardize(x)
        return -F.log(self.scale) - z - F.exp(-z)

    def cdf(self, x):
        return F.exp(-F.exp(-self._standardize(x)))

    def icdf(self, x):
        return self.loc - self.scale * F.log(-F.log(x))

    @property
    def mean(self):
        return self.loc + utils.EULER_GAMMA * self.scale

    @property
    def variance(self):
        return math.pi ** 2 / 6 * self.scale ** 2

    @property
    def entropy(self):
        return F.log(self.scale) + utils.EULER_GAMMA + 1


@registry.register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(p, q):
    ratio = p.scale / q.scale
    return (F.log(q.scale) - F.log(p.scale)
            + utils.EULER_GAMMA * (ratio - 1)
            + (p.loc - q.loc) / q.scale
            + F.exp((q.loc - p.loc) / q.scale + F.lgamma(ratio + 1)) - 1)
