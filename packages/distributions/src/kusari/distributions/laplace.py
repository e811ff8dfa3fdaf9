"""Laplace (double exponential) distribution."""
import math

from kusari.autograd import functions as F
from kusari.distributions import registry
from kusari.distributions import utils


class Laplace(utils.LocationScale):
    """Laplace distribution: density ``exp(-|x - loc| / scale) / (2
    scale)``.

    Args:
        loc: Variable or array, the location (mean and median).
        scale: Variable or array, the scale (positive).
    """

    _noise = 'laplace'

    def log_prob(self, x):
        return -math.log(2) - F.log(self.scale) - \
            F.absolute(x - self.loc) / self.scale

    def cdf(self, x):
        z = self._standardize(x)
        return 0.5 - 0.5 * F.sign(z) * F.expm1(-F.absolute(z))

    def icdf(self, x):
        centred = utils.as_variable(x) - 0.5
        return self.loc - self.scale * F.sign(centred) * \
            F.log1p(-2 * F.absolute(centred))

    @property
    def mean(self):
        return self.loc

    @property
    def variance(self):
        return 2 * self.scale ** 2

    @property
    def stddev(self):
        return math.sqrt(2) * self.scale

    @property
    def entropy(self):
        return 1 + math.log(2) + F.log(self.scale)


@registry.register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p, q):
    distance = F.absolute(p.loc - q.loc)
    return (F.log(q.scale) - F.log(p.scale) + distance / q.scale
            + p.scale / q.scale * F.exp(-distance / p.scale) - 1)
