"""Dirichlet distribution over the probability simplex."""
from kusari.autograd import functions as F
from kusari.distributions import distribution
from kusari.distributions import gamma
from kusari.distributions import registry
from kusari.distributions import utils


class Dirichlet(distribution.Distribution):
    """Dirichlet distribution: density ``prod(x_i^(alpha_i - 1)) /
    B(alpha)`` on the simplex; the last axis is the event.

    Args:
        alpha: Variable or array of shape ``batch_shape + (K,)``, the
            concentrations (positive).
    """

    def __init__(self, alpha):
        self.alpha, = utils.parameters(
            'Dirichlet', event_ndims={'alpha': 1},
            alpha=(alpha, 'positive'))
        if self.alpha.ndim == 0:
            raise ValueError('Dirichlet: alpha must have at least one axis '
                             '(the categories), got a 0-dim array')
        self._batch_shape = self.alpha.shape[:-1]
        self._event_shape = self.alpha.shape[-1:]

    @property
    def alpha0(self):
        """The total concentration ``sum(alpha)``, of shape
        ``batch_shape``."""
        return F.sum(self.alpha, axis=-1)

    @property
    def params(self):
        return {'alpha': self.alpha}

    def _log_normalizer(self):
        return F.sum(F.lgamma(self.alpha), axis=-1) - F.lgamma(self.alpha0)

    def log_prob(self, x):
        return (F.sum((self.alpha - 1) * F.log(x), axis=-1)
                - self._log_normalizer())

    @property
    def mean(self):
        return self.alpha / F.expand_dims(self.alpha0, -1)

    @property
    def variance(self):
        alpha0 = F.expand_dims(self.alpha0, -1)
        return self.alpha * (alpha0 - self.alpha) / (
            alpha0 ** 2 * (alpha0 + 1))

    @property
    def entropy(self):
        alpha0 = self.alpha0
        k = self.alpha.shape[-1]
        return (self._log_normalizer() + (alpha0 - k) * F.digamma(alpha0)
                - F.sum((self.alpha - 1) * F.digamma(self.alpha), axis=-1))

    @property
    def support(self):
        return '[0, 1]'

    def sample_n(self, n):
        xp = self.xp
        shape = utils.sample_shape(n, self.alpha.shape)
        gammas = gamma.standard_gamma(xp, self.alpha.array, shape)
        return utils.constant(gammas / gammas.sum(axis=-1, keepdims=True))


@registry.register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p, q):
    digamma_gap = F.digamma(p.alpha) - F.expand_dims(
        F.digamma(p.alpha0), -1)
    return (q._log_normalizer() - p._log_normalizer()
            + F.sum((p.alpha - q.alpha) * digamma_gap, axis=-1))
