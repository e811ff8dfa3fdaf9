"""Bernoulli distribution."""
import numpy

from kusari.array import backend
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
        return _bernoulli_log_prob(self.logit, x, self.binary_check)

    @property
    def mean(self):
        return self.p

    @property
    def variance(self):
        p = self.p
        return p * (1 - p)

    @property
    def entropy(self):
        # An infinite logit is a p of 0 or 1: a certain outcome.
        logit = self.logit
        return utils.defined_where(
            logit, self.xp.isinf(logit.array), 0.0,
            lambda logit: F.softplus(logit) - F.sigmoid(logit) * logit, 0.0)

    @property
    def support(self):
        return '{0, 1}'

    def sample_n(self, n):
        shape = utils.sample_shape(n, self.batch_shape)
        draws = self.xp.random.binomial(1, self.p.array, size=shape)
        return utils.constant(draws)


def _bernoulli_log_prob(logit, x, binary_check=False):
    """``x log p + (1 - x) log(1 - p)`` of the log-odds ``logit``, computed
    as ``x logit - softplus(logit)``.

    Where ``p`` is 1 (``logit`` is ``inf``) it is ``log x``, and where
    ``p`` is 0 it is ``log(1 - x)``, as in Chainer: 0 and ``-inf`` at the
    values 0 and 1, with no NaN from ``inf - inf``. With ``binary_check``
    it is ``-inf`` at values other than 0 and 1. The gradient flows to
    ``logit`` only; ``x`` is taken in ``logit``'s dtype.
    """
    logit = utils.as_variable(logit)
    x = utils.constant(
        utils.as_array(x).astype(logit.dtype, copy=False))
    logit_array = logit.array
    xp = backend.get_array_module(logit_array)
    infinite = xp.isinf(logit_array)
    log_prob = utils.defined_where(
        logit, infinite, 0.0,
        lambda logit: x * logit - F.softplus(logit), 0.0)
    if infinite.any():
        log_prob = utils.where(infinite & (logit_array > 0), F.log(x),
                               log_prob)
        log_prob = utils.where(infinite & (logit_array < 0), F.log(1 - x),
                               log_prob)
    if binary_check:
        x_array = x.array
        log_prob = utils.where((x_array != 0) & (x_array != 1), -numpy.inf,
                               log_prob)
    return log_prob


@registry.register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    # log p = -softplus(-logit), log(1 - p) = -softplus(logit)
    p_logit, q_logit = p.logit, q.logit
    return (p.p * (F.softplus(-q_logit) - F.softplus(-p_logit))
            + (1 - p.p) * (F.softplus(q_logit) - F.softplus(p_logit)))
