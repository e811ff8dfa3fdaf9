"""Log-normal distribution: ``exp`` of a Normal variable."""
from kusari.autograd import functions as F
from kusari.distributions import distribution
from kusari.distributions import normal
from kusari.distributions import registry
from kusari.distributions import utils


class LogNormal(distribution.Distribution):
    """Distribution of ``exp(Y)`` for ``Y ~ N(mu, sigma^2)``.

    Args:
        mu: Variable or array, the mean of ``log X``.
        sigma: Variable or array, the standard deviation of ``log X``
            (positive).
    """

    def __init__(self, mu, sigma):
        self.mu, self.sigma = utils.parameters(
            'LogNormal', mu=(mu, None), sigma=(sigma, 'positive'))
        self._batch_shape = self.mu.shape

    @property
    def params(self):
        return {'mu': self.mu, 'sigma': self.sigma}

    def _standardize(self, log_x):
        return (log_x - self.mu) / self.sigma

    def log_prob(self, x):
        def log_density(x):
            log_x = F.log(x)
            return normal.log_density(self._standardize(log_x),
                                      F.log(self.sigma)) - log_x
        return utils.log_prob_on_support(
            x, utils.as_array(x) <= 0, 1.0, log_density)

    def cdf(self, x):
        return F.ndtr(self._standardize(F.log(x)))

    def icdf(self, x):
        return F.exp(self.mu + self.sigma * F.ndtri(x))

    @property
    def mean(self):
        return F.exp(self.mu + 0.5 * self.sigma ** 2)

    @property
    def mode(self):
        return F.exp(self.mu - self.sigma ** 2)

    @property
    def variance(self):
        sigma2 = self.sigma ** 2
        return F.expm1(sigma2) * F.exp(2 * self.mu + sigma2)

    @property
    def entropy(self):
        return 0.5 * (utils.LOG_2PI + 1) + F.log(self.sigma) + self.mu

    @property
    def support(self):
        return 'positive'

    def sample_n(self, n):
        shape = utils.sample_shape(n, self.batch_shape)
        eps = utils.noise(self.xp, 'standard_normal', shape, self.mu.dtype)
        return F.exp(self.mu + self.sigma * eps)


@registry.register_kl(LogNormal, LogNormal)
def _kl_log_normal_log_normal(p, q):
    # KL is invariant under the common bijection exp.
    return normal.kl(p.mu, p.sigma, F.log(p.sigma),
                     q.mu, q.sigma, F.log(q.sigma))
