"""Multivariate normal distribution, parameterised by a Cholesky factor."""
from kusari.array import backend
from kusari.autograd import functions as F
from kusari.distributions import distribution
from kusari.distributions import registry
from kusari.distributions import utils


def _inverse(scale_tril):
    """Inverse of each lower-triangular matrix of a stack of any batch
    shape.

    It reads the lower triangles only: the structural zeros above the
    diagonal get no gradient, so that a ``scale_tril`` trained directly
    stays lower triangular.
    """
    xp = backend.get_array_module(scale_tril)
    d = scale_tril.shape[-1]
    lower = xp.tril(xp.ones((d, d), dtype=scale_tril.dtype))
    flat = F.reshape(scale_tril * lower, (-1, d, d))
    return F.reshape(F.batch_inv(flat), scale_tril.shape)


def _apply(matrices, vectors):
    """``matrices @ vectors`` over the last axes, batch axes broadcast."""
    return F.squeeze(F.matmul(matrices, F.expand_dims(vectors, -1)), -1)


class MultivariateNormal(distribution.Distribution):
    """Multivariate normal distribution ``N(loc, L L^T)``.

    Args:
        loc: Variable or array of shape ``batch_shape + (d,)``, the mean.
        scale_tril: Variable or array of shape ``batch_shape + (d, d)``,
            the lower-triangular Cholesky factor ``L`` of the covariance,
            with a positive diagonal.
    """

    def __init__(self, loc, scale_tril=None):
        if scale_tril is None:
            raise ValueError('MultivariateNormal: scale_tril must be given '
                             '(the Cholesky factor of the covariance)')
        self.loc, self.scale_tril = utils.parameters(
            'MultivariateNormal', event_ndims={'loc': 1, 'scale_tril': 2},
            loc=(loc, None), scale_tril=(scale_tril, None))
        d = self.loc.shape[-1:] if self.loc.ndim else ()
        if len(d) != 1 or self.scale_tril.shape[-2:] != d * 2:
            raise ValueError(
                f'MultivariateNormal: loc must end with an axis of size d '
                f'and scale_tril with two of size d; got loc '
                f'{self.loc.shape} and scale_tril {self.scale_tril.shape}')
        xp = self.xp
        tril = self.scale_tril.array
        if bool(xp.any(xp.triu(tril, 1) != 0)):
            raise ValueError('MultivariateNormal: scale_tril must be lower '
                             'triangular; it has nonzeros above the '
                             'diagonal')
        utils.check_domain('MultivariateNormal', 'the diagonal of '
                           'scale_tril', xp.diagonal(tril, 0, -2, -1),
                           'positive')
        self.d = d[0]
        self._batch_shape = self.loc.shape[:-1]
        self._event_shape = d

    @property
    def params(self):
        return {'loc': self.loc, 'scale_tril': self.scale_tril}

    def _log_det_scale(self):
        return F.sum(F.log(F.diagonal(self.scale_tril, 0, -2, -1)), axis=-1)

    def log_prob(self, x):
        whitened = _apply(_inverse(self.scale_tril), x - self.loc)
        return (-0.5 * F.sum(whitened ** 2, axis=-1)
                - self._log_det_scale() - 0.5 * self.d * utils.LOG_2PI)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def covariance(self):
        return F.matmul(self.scale_tril, self.scale_tril, transb=True)

    @property
    def variance(self):
        return F.sum(self.scale_tril ** 2, axis=-1)

    @property
    def entropy(self):
        return 0.5 * self.d * (1 + utils.LOG_2PI) + self._log_det_scale()

    @property
    def support(self):
        return 'real'

    def sample_n(self, n):
        shape = utils.sample_shape(n, self.loc.shape)
        eps = utils.noise(self.xp, 'standard_normal', shape, self.loc.dtype)
        return self.loc + _apply(self.scale_tril, eps)


@registry.register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariate_normal(p, q):
    q_inverse = _inverse(q.scale_tril)
    # tr(S_q^-1 S_p) = |L_q^-1 L_p|_F^2; the Mahalanobis term likewise.
    trace = F.sum(F.matmul(q_inverse, p.scale_tril) ** 2, axis=(-2, -1))
    mahalanobis = F.sum(_apply(q_inverse, q.loc - p.loc) ** 2, axis=-1)
    return (0.5 * (trace + mahalanobis - p.d)
            + q._log_det_scale() - p._log_det_scale())
