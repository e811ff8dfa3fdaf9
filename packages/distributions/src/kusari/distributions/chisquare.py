"""Chi-square distribution: a Gamma of shape ``k / 2`` and scale 2."""
import math

from kusari.distributions import distribution
from kusari.distributions import gamma
from kusari.distributions import utils


class Chisquare(distribution.Distribution):
    """Chi-square distribution with ``k`` degrees of freedom.

    Args:
        k: Variable or array, the degrees of freedom (positive).
    """

    def __init__(self, k):
        self.k, = utils.parameters('Chisquare', k=(k, 'positive'))
        self._batch_shape = self.k.shape

    @property
    def params(self):
        return {'k': self.k}

    def log_prob(self, x):
        return gamma.log_prob_positive(x, lambda x: gamma.log_density(
            x, self.k / 2, math.log(2), 2))

    @property
    def mean(self):
        return self.k

    @property
    def variance(self):
        return 2 * self.k

    @property
    def entropy(self):
        return gamma.entropy(self.k / 2, math.log(2))

    @property
    def support(self):
        return 'positive'

    def sample_n(self, n):
        shape = utils.sample_shape(n, self.batch_shape)
        # A chi-square variable is twice a Gamma of shape k / 2.
        return utils.constant(
            2 * gamma.standard_gamma(self.xp, self.k.array / 2, shape))
