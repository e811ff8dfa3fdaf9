"""Independent: reinterprets batch axes of a distribution as event axes."""
import math

from kusari.autograd import functions as F
from kusari.distributions.distribution import Distribution
from kusari.distributions import registry


class Independent(Distribution):
    """The joint distribution of independent components of a batch.

    The last ``reinterpreted_batch_ndims`` batch axes of ``distribution``
    become event axes: ``log_prob`` sums over them, ``batch_shape``
    loses them.

    Args:
        distribution: the base Distribution.
        reinterpreted_batch_ndims: how many batch axes (from the right)
            become event axes; by default all but the first.
    """

    def __init__(self, distribution, reinterpreted_batch_ndims=None):
        if not isinstance(distribution, Distribution):
            raise TypeError(f'Independent: distribution must be a '
                            f'Distribution, got '
                            f'{type(distribution).__name__}')
        batch_ndim = len(distribution.batch_shape)
        if reinterpreted_batch_ndims is None:
            reinterpreted_batch_ndims = max(batch_ndim - 1, 0)
        if not 0 <= reinterpreted_batch_ndims <= batch_ndim:
            raise ValueError(
                f'Independent: reinterpreted_batch_ndims must be in [0, '
                f'{batch_ndim}] for a distribution of batch_shape '
                f'{distribution.batch_shape}, got '
                f'{reinterpreted_batch_ndims}')
        self.distribution = distribution
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        split = batch_ndim - reinterpreted_batch_ndims
        self._batch_shape = distribution.batch_shape[:split]
        self._event_shape = (distribution.batch_shape[split:]
                             + distribution.event_shape)

    def _reduce(self, values, reduction=F.sum):
        """Reduce the reinterpreted axes, the last ones of ``values`` (a
        value per batch element, as log_prob, entropy or a KL)."""
        if self.reinterpreted_batch_ndims == 0:
            return values
        axes = tuple(range(values.ndim - self.reinterpreted_batch_ndims,
                           values.ndim))
        return reduction(values, axis=axes)

    @property
    def params(self):
        return self.distribution.params

    def log_prob(self, x):
        return self._reduce(self.distribution.log_prob(x))

    def cdf(self, x):
        return self._reduce(self.distribution.cdf(x), F.prod)

    def log_cdf(self, x):
        return self._reduce(self.distribution.log_cdf(x))

    def survival_function(self, x):
        """``P(X > x)``, every component above its bound: the product
        of the components' survival functions."""
        return self._reduce(self.distribution.survival_function(x), F.prod)

    def log_survival_function(self, x):
        return self._reduce(self.distribution.log_survival_function(x))

    @property
    def mean(self):
        return self.distribution.mean

    @property
    def covariance(self):
        """Block diagonal, of shape ``batch_shape + (m d, m d)``: the
        covariances ``(d, d)`` of the ``m`` components on the diagonal,
        zeros between independent components."""
        base = self.distribution.covariance
        d = base.shape[-1]
        m = math.prod(self.distribution.batch_shape[len(self.batch_shape):])
        batch = tuple(self.batch_shape)
        blocks = F.broadcast_to(
            F.reshape(base, batch + (m, 1, d, d)), batch + (m, m, d, d))
        eye = self.xp.eye(m, dtype=base.dtype)[:, :, None, None]
        ndim = len(batch)
        tiled = F.transpose(blocks * eye, tuple(range(ndim)) + tuple(
            ndim + axis for axis in (0, 2, 1, 3)))
        return F.reshape(tiled, batch + (m * d, m * d))

    @property
    def mode(self):
        return self.distribution.mode

    @property
    def variance(self):
        return self.distribution.variance

    @property
    def stddev(self):
        return self.distribution.stddev

    @property
    def entropy(self):
        return self._reduce(self.distribution.entropy)

    @property
    def support(self):
        return self.distribution.support

    def sample_n(self, n):
        return self.distribution.sample_n(n)


@registry.register_kl(Independent, Independent)
def _kl_independent_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise ValueError(
            f'kl_divergence: the Independent distributions reinterpret '
            f'different numbers of batch axes: '
            f'{p.reinterpreted_batch_ndims} and '
            f'{q.reinterpreted_batch_ndims}')
    return p._reduce(
        registry.kl_divergence(p.distribution, q.distribution))
