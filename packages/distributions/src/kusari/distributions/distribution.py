"""The interface every probability distribution implements.

A distribution holds its parameters as Variables; densities, moments and
reparameterised samples are built from differentiable functions, so their
gradients flow back to the parameters. Shapes follow Chainer: a draw has
``sample_shape + batch_shape + event_shape``; ``log_prob`` and the other
pointwise functions reduce the event axes only.
"""
import math

from kusari.array import backend
from kusari.array import device_resident
from kusari.autograd import functions as F
from kusari.autograd import variable


class Distribution(device_resident.DeviceResident):
    """Interface of a probability distribution.

    Subclasses set ``_batch_shape`` (and ``_event_shape`` when the events
    are not scalars) and override what they can compute; what a subclass
    cannot compute raises NotImplementedError naming it. Derived values
    have defaults: ``prob`` from ``log_prob``, ``log_cdf`` and
    ``survival_function`` from ``cdf``, ``stddev`` from ``variance``.
    """

    _event_shape = ()

    def _undefined(self, what):
        raise NotImplementedError(
            f'{type(self).__name__} does not provide {what}')

    def __repr__(self):
        return (f'{type(self).__name__}(batch_shape={self.batch_shape}, '
                f'event_shape={self.event_shape})')

    # -- shapes and parameters -----------------------------------------

    @property
    def batch_shape(self):
        """Shape of the batch of independent distributions."""
        return self._batch_shape

    @property
    def event_shape(self):
        """Shape of one draw of one distribution of the batch."""
        return self._event_shape

    @property
    def params(self):
        """The parameters, as a dict of Variables."""
        return self._undefined('params')

    # -- devices -------------------------------------------------------

    def _residents(self):
        """The Variables and the distributions this one holds."""
        return [value for value in vars(self).values()
                if isinstance(value, (variable.Variable, Distribution))]

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        for value in self._residents():
            if isinstance(value, Distribution):
                value.device_resident_accept(visitor)
            else:
                visitor.visit_variable(value)

    @property
    def device(self):
        """The device holding the parameters."""
        value = self._residents()[0]
        if isinstance(value, Distribution):
            return value.device
        return backend.get_device_from_array(value.array)

    @property
    def xp(self):
        """The array module of the parameters (numpy or cupy)."""
        return self.device.xp

    # -- moments and summaries -----------------------------------------

    @property
    def mean(self):
        """The mean, of shape ``batch_shape + event_shape``."""
        return self._undefined('mean')

    @property
    def mode(self):
        """The most probable point."""
        return self._undefined('mode')

    @property
    def variance(self):
        """The variance, elementwise over the event."""
        return self._undefined('variance')

    @property
    def stddev(self):
        """The standard deviation: the square root of the variance."""
        return F.sqrt(self.variance)

    @property
    def covariance(self):
        """The covariance matrix of a vector-valued event."""
        return self._undefined('covariance')

    @property
    def entropy(self):
        """The differential (or discrete) entropy, of shape
        ``batch_shape``."""
        return self._undefined('entropy')

    @property
    def support(self):
        """A string naming the set of values the distribution takes."""
        return self._undefined('support')

    # -- pointwise functions ---------------------------------------------

    def log_prob(self, x):
        """Log of the density (or mass) at ``x``."""
        return self._undefined('log_prob')

    def prob(self, x):
        """The density (or mass) at ``x``: ``exp(log_prob(x))``."""
        return F.exp(self.log_prob(x))

    def cdf(self, x):
        """The cumulative distribution function at ``x``."""
        return self._undefined('cdf')

    def log_cdf(self, x):
        """Log of the cumulative distribution function at ``x``."""
        return F.log(self.cdf(x))

    def survival_function(self, x):
        """``P(X > x) = 1 - cdf(x)``."""
        return 1 - self.cdf(x)

    def log_survival_function(self, x):
        """Log of the survival function at ``x``."""
        return F.log(self.survival_function(x))

    def icdf(self, x):
        """The inverse of the cdf: the quantile of probability ``x``."""
        return self._undefined('icdf')

    def perplexity(self, x):
        """``exp(-log_prob(x))``: the perplexity of the observation ``x``
        under this distribution."""
        return F.exp(-self.log_prob(x))

    # -- sampling ------------------------------------------------------

    def sample_n(self, n):
        """``n`` draws, of shape ``(n,) + batch_shape + event_shape``."""
        return self._undefined('sample_n')

    def sample(self, sample_shape=()):
        """Draws of shape ``sample_shape + batch_shape + event_shape``.

        Args:
            sample_shape: an int or a tuple of ints.
        """
        if isinstance(sample_shape, int):
            sample_shape = (sample_shape,)
        sample_shape = tuple(sample_shape)
        draws = self.sample_n(math.prod(sample_shape))
        shape = sample_shape + tuple(self.batch_shape) + \
            tuple(self.event_shape)
        if draws.dtype.kind == 'f':
            return F.reshape(draws, shape)
        return variable.Variable(draws.array.reshape(shape),
                                 requires_grad=False)
