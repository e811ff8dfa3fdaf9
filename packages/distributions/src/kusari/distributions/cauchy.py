"""Cauchy distribution."""
import math
import warnings

from kusari.autograd import functions as F
from kusari.distributions import utils


class Cauchy(utils.LocationScale):
    """Cauchy distribution: density ``1 / (pi scale (1 + z^2))``, ``z = (x
    - loc) / scale``. Its mean and variance are undefined (NaN, with a
    warning).

    Args:
        loc: Variable or array, the location (median and mode).
        scale: Variable or array, the scale (positive).
    """

    _noise = 'standard_cauchy'

    def log_prob(self, x):
        return -math.log(math.pi) - F.log(self.scale) - \
            F.log1p(self._standardize(x) ** 2)

    def cdf(self, x):
        return 0.5 + F.arctan(self._standardize(x)) / math.pi

    def icdf(self, x):
        centred = utils.as_variable(x) - 0.5
        return self.loc + self.scale * F.tan(math.pi * centred)

    def _undefined_moment(self, name):
        warnings.warn(f'Cauchy: the {name} of a Cauchy distribution is '
                      f'undefined; returning NaN', RuntimeWarning)
        return utils.full_like(self.loc, math.nan)

    @property
    def mean(self):
        return self._undefined_moment('mean')

    @property
    def variance(self):
        return self._undefined_moment('variance')

    @property
    def entropy(self):
        return math.log(4 * math.pi) + F.log(self.scale)
