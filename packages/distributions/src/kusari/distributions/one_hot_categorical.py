"""Categorical distribution whose draws are one-hot vectors."""
from kusari.autograd import functions as F
from kusari.distributions import categorical
from kusari.distributions import distribution
from kusari.distributions import registry
from kusari.distributions import utils


class OneHotCategorical(distribution.Distribution):
    """Categorical distribution over one-hot vectors of length ``K``.

    Args:
        p: Variable or array of shape ``batch_shape + (K,)``, probabilities
            summing to 1 over the last axis.
    """

    def __init__(self, p):
        self._categorical = categorical.Categorical(p)
        self._batch_shape = self._categorical.batch_shape
        self._event_shape = self._categorical.p.shape[-1:]

    @property
    def p(self):
        """The class probabilities."""
        return self._categorical.p

    @property
    def log_p(self):
        """Log of the class probabilities."""
        return self._categorical.log_p

    @property
    def params(self):
        return {'p': self.p}

    def log_prob(self, x):
        x = utils.as_float(x, self.p.dtype)
        return F.sum(x * self.log_p, axis=-1)

    @property
    def mean(self):
        return self.p

    @property
    def variance(self):
        p = self.p
        return p * (1 - p)

    @property
    def mode(self):
        index = self._categorical.mode.array
        return utils.constant(self.xp.eye(
            self.event_shape[0], dtype=self.p.dtype)[index])

    @property
    def entropy(self):
        return self._categorical.entropy

    def sample_n(self, n):
        index = self._categorical.sample_n(n).array
        return utils.constant(self.xp.eye(
            self.event_shape[0], dtype=self.p.dtype)[index])


registry.register_kl(OneHotCategorical, OneHotCategorical)(categorical.kl)
