"""Bernoulli distribution."""
from kusari.autograd import functions as F
from kusari.distributions import distribution
from kusari.distributions import registry
from kusari.distributions import utils


class Bernoulli(distribution.Distribution):
    """Bernoulli distribution: 1 with probability ``p``, 0 otherwise.

    Give either ``p`` or ``logit`` (``log(p / (1 - p))``); the logit is
    numerically safer where a network outputs it.

    Args:
        p: Variable or array, probabilities in ``[0, 1]``.
        logit: Variable or array, log-odds.
        binary_check: if True, ``log_prob`` is ``-inf`` at values other
            than 0 and 1; otherwise it extends ``x log p + (1 - x) log(1 -
            p)`` to any ``x``.
    """

    def __init__(self, p=None, logit=None, binary_check=False):
        if utils.one_of('Bernoulli', p=p, logit=logit) == 'p':
            self._p, = utils.parameters(
                'Bernoulli', p=(p, 'probability'))
            self._logit = None
        else:
            self._logit, = utils.parameters('Bernoulli', logit=(logit, None))
            self._p = None
        self.binary_check = binary_check
        self._batch_shape = (self._p if self._logit is None
                             else self._logit).shape

    @property
    def p(self):
        """The probability of 1."""
        if self._p is None:
            return F.sigmoid(self._logit)
        return self._p

    @property
    def logit(self):
        """The log-odds ``log(p) - log(1 - p)``."""
        if self._logit is None:
            return F.log(self._p) - F.log1p(-self._p)
        return self._logit

    @property
    def params(self):
        return {'logit': self.logit}

    def log_prob(self, x):
        x = utils.as_float(x, self.p.dtype)
        logit = self.logit

        def log_density(x):
            return x * logit - F.softplus(logit)

        if not self.binary_check:
            return log_density(x)
        x_array = utils.as_array(x)
        return utils.log_prob_on_support(
            x, (x_array != 0) & (x_array != 1), 0.0, log_density)

    @property
    def mean(self):
        return self.p

    @property
    def variance(self):
        p = self.p
        return p * (1 - p)

    @property
    def entropy(self):
        logit = self.logit
        return F.softplus(logit) - self.p * logit

    @property
    def support(self):
        return '{0, 1}'

    def sample_n(self, n):
        shape = utils.sample_shape(n, self.batch_shape)
        draws = self.xp.random.binomial(1, self.p.array, size=shape)
        return utils.constant(draws)


@registry.register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    # log p = -softplus(-logit), log(1 - p) = -softplus(logit)
    p_logit, q_logit = p.logit, q.logit
    return (p.p * (F.softplus(-q_logit) - F.softplus(-p_logit))
            + (1 - p.p) * (F.softplus(q_logit) - F.softplus(p_logit)))
