"""Continuous uniform distribution."""
import math

import numpy

from kusari.autograd import functions as F
from kusari.distributions import distribution
from kusari.distributions import registry
from kusari.distributions import utils


class Uniform(distribution.Distribution):
    """Uniform distribution on ``[low, high]``.

    Give either ``low`` and ``high``, or ``loc`` and ``scale`` (then
    ``low = loc``, ``high = loc + scale``), all Variables or arrays, by
    keyword.
    """

    def __init__(self, *, low=None, high=None, loc=None, scale=None):
        bounds = (low is not None, high is not None)
        shifted = (loc is not None, scale is not None)
        if bounds == (True, True) and shifted == (False, False):
            self.low, self.high = utils.parameters(
                'Uniform', low=(low, None), high=(high, None))
            self._given_scale = None
        elif shifted == (True, True) and bounds == (False, False):
            loc, scale = utils.parameters(
                'Uniform', loc=(loc, None), scale=(scale, 'positive'))
            self.low, self.high = loc, loc + scale
            self._given_scale = scale
        else:
            raise ValueError('Uniform: give either low and high, or loc and '
                             'scale')
        utils.check_domain('Uniform', 'high - low',
                           (self.high - self.low).array, 'positive')
        self._batch_shape = self.low.shape

    @property
    def loc(self):
        """The lower end, ``low``."""
        return self.low

    @property
    def scale(self):
        """The width, ``high - low``."""
        if self._given_scale is not None:
            return self._given_scale
        return self.high - self.low

    @property
    def params(self):
        """``low`` and ``high``, or ``loc`` and ``scale`` when given."""
        if self._given_scale is not None:
            return {'loc': self.low, 'scale': self._given_scale}
        return {'low': self.low, 'high': self.high}

    def log_prob(self, x):
        x_array = utils.as_array(x)
        outside = (x_array < self.low.array) | (x_array > self.high.array)
        shape = numpy.broadcast_shapes(x_array.shape, self.batch_shape)
        return utils.log_prob_on_support(
            x, outside, 0.0,
            lambda x: F.broadcast_to(-F.log(self.scale), shape))

    def cdf(self, x):
        return F.clip((x - self.low) / self.scale, 0.0, 1.0)

    def icdf(self, x):
        return self.low + x * self.scale

    @property
    def mean(self):
        return (self.low + self.high) / 2

    @property
    def variance(self):
        return self.scale ** 2 / 12

    @property
    def stddev(self):
        return self.scale / math.sqrt(12)

    @property
    def entropy(self):
        return F.log(self.scale)

    @property
    def support(self):
        return '[low, high]'

    def sample_n(self, n):
        shape = utils.sample_shape(n, self.batch_shape)
        eps = utils.noise(self.xp, 'uniform', shape, self.low.dtype)
        return self.low + eps * self.scale


@registry.register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p, q):
    # Infinite unless p's interval lies inside q's.
    outside = (p.low.array < q.low.array) | (p.high.array > q.high.array)
    divergence = F.log(q.scale) - F.log(p.scale)
    return utils.where(outside, float('inf'), divergence)
