"""Pareto distribution."""
import math

from kusari.autograd import functions as F
from kusari.distributions import distribution
from kusari.distributions import registry
from kusari.distributions import utils


class Pareto(distribution.Distribution):
    """Pareto distribution: density ``alpha scale^alpha / x^(alpha + 1)``
    for ``x >= scale``.

    Args:
        scale: Variable or array, the smallest value (positive).
        alpha: Variable or array, the shape (positive).
    """

    def __init__(self, scale, alpha):
        self.scale, self.alpha = utils.parameters(
            'Pareto', scale=(scale, 'positive'), alpha=(alpha, 'positive'))
        self._batch_shape = self.scale.shape

    @property
    def params(self):
        return {'scale': self.scale, 'alpha': self.alpha}

    def log_prob(self, x):
        x_array = utils.as_array(x)
        outside = x_array < self.scale.array
        return utils.log_prob_on_support(
            x, outside, self.scale.array,
            lambda x: (F.log(self.alpha) + self.alpha * F.log(self.scale)
                       - (self.alpha + 1) * F.log(x)))

    def cdf(self, x):
        # Below scale the difference is negative; the cdf is 0 there.
        return F.relu(1 - (self.scale / x) ** self.alpha)

    def icdf(self, x):
        return self.scale * (1 - utils.as_variable(x)) ** (-1 / self.alpha)

    def _finite_where(self, least, moment):
        """``moment(alpha)`` where ``alpha > least``, ``inf`` elsewhere.

        There ``moment`` sees ``least + 1`` instead of ``alpha``, so that
        the unused branch gives no NaN gradient.
        """
        defined = self.alpha.array > least
        alpha = utils.where(defined, self.alpha, least + 1.0)
        return utils.where(defined, moment(alpha), math.inf)

    @property
    def mean(self):
        return self._finite_where(
            1, lambda alpha: alpha * self.scale / (alpha - 1))

    @property
    def variance(self):
        return self._finite_where(2, lambda alpha: self.scale ** 2 * alpha / (
            (alpha - 1) ** 2 * (alpha - 2)))

    @property
    def mode(self):
        return self.scale

    @property
    def entropy(self):
        return F.log(self.scale) - F.log(self.alpha) + 1 / self.alpha + 1

    @property
    def support(self):
        return '[scale, inf]'

    def sample_n(self, n):
        shape = utils.sample_shape(n, self.batch_shape)
        u = utils.noise(self.xp, 'uniform', shape, self.scale.dtype)
        # 1 - u lies in (0, 1]: no infinite draw.
        return self.scale * F.exp(-F.log(1 - u) / self.alpha)


@registry.register_kl(Pareto, Pareto)
def _kl_pareto_pareto(p, q):
    # Infinite where p puts mass below q's smallest value.
    divergence = (F.log(p.alpha) - F.log(q.alpha)
                  + q.alpha * (F.log(p.scale) - F.log(q.scale))
                  + q.alpha / p.alpha - 1)
    return utils.where(p.scale.array < q.scale.array, math.inf, divergence)
