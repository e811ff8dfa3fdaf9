"""Normal (Gaussian) distribution."""
from kusari.autograd import functions as F
from kusari.distributions import registry
from kusari.distributions import utils


def log_density(z, log_scale):
    """Log density of a Normal at standardized point ``z``."""
    return -0.5 * utils.LOG_2PI - log_scale - 0.5 * z * z


def kl(loc1, scale1, log_scale1, loc2, scale2, log_scale2):
    """KL divergence between Normal(loc1, scale1) and Normal(loc2,
    scale2)."""
    return (log_scale2 - log_scale1
            + (scale1 ** 2 + (loc1 - loc2) ** 2) / (2 * scale2 ** 2) - 0.5)


class Normal(utils.LocationScale):
    """Normal distribution ``N(loc, scale^2)``.

    Args:
        loc: Variable or array, the mean.
        scale: Variable or array, the standard deviation (positive).
        log_scale: Variable or array, ``log(scale)``; give it instead of
            ``scale`` where the network outputs a log standard deviation.
    """

    _noise = 'standard_normal'

    def __init__(self, loc, scale=None, *, log_scale=None):
        if utils.one_of('Normal', scale=scale,
                        log_scale=log_scale) == 'scale':
            self.loc, self._scale = utils.parameters(
                'Normal', loc=(loc, None), scale=(scale, 'positive'))
            self._log_scale = None
        else:
            self.loc, self._log_scale = utils.parameters(
                'Normal', loc=(loc, None), log_scale=(log_scale, None))
            self._scale = None
        self._batch_shape = self.loc.shape

    @property
    def scale(self):
        """The standard deviation."""
        if self._scale is None:
            return F.exp(self._log_scale)
        return self._scale

    @property
    def log_scale(self):
        """Log of the standard deviation."""
        if self._log_scale is None:
            return F.log(self._scale)
        return self._log_scale

    def log_prob(self, x):
        return log_density(self._standardize(x), self.log_scale)

    def cdf(self, x):
        return F.ndtr(self._standardize(x))

    def log_cdf(self, x):
        return F.log_ndtr(self._standardize(x))

    def survival_function(self, x):
        return F.ndtr(-self._standardize(x))

    def log_survival_function(self, x):
        return F.log_ndtr(-self._standardize(x))

    def icdf(self, x):
        return self.loc + self.scale * F.ndtri(x)

    @property
    def mean(self):
        return self.loc

    @property
    def variance(self):
        return self.scale ** 2

    @property
    def stddev(self):
        return self.scale

    @property
    def entropy(self):
        return 0.5 * (utils.LOG_2PI + 1) + self.log_scale


@registry.register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    return kl(p.loc, p.scale, p.log_scale, q.loc, q.scale, q.log_scale)
