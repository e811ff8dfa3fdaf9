"""Categorical distribution over ``K`` classes."""
import numpy

from kusari.array import backend
from kusari.autograd import functions as F
from kusari.distributions import distribution
from kusari.distributions import registry
from kusari.distributions import utils


def _class_indices(x, classes):
    """``x`` as integer class indices in ``[0, classes)``; floats (as
    Chainer takes them) must hold whole numbers. An index out of range is
    an IndexError, as in Chainer."""
    if x.dtype.kind not in 'iuf':
        raise TypeError(f'Categorical.log_prob: x must hold integer class '
                        f'indices, got dtype {x.dtype}')
    xp = backend.get_array_module(x)
    if x.dtype.kind == 'f' and not bool(xp.all(x == xp.floor(x))):
        raise ValueError('Categorical.log_prob: x must hold class indices; '
                         'its float values have fractional parts')
    if x.size and not bool(xp.all((x >= 0) & (x < classes))):
        raise IndexError(f'Categorical.log_prob: x must hold class indices '
                         f'in [0, {classes}), got values in '
                         f'[{x.min()}, {x.max()}]')
    return x.astype(numpy.int64, copy=False)


class Categorical(distribution.Distribution):
    """Categorical distribution: class ``i`` with probability ``p[..., i]``.

    The last axis of the parameter holds the classes; draws are integer
    class indices.

    Args:
        p: Variable or array of shape ``batch_shape + (K,)``, probabilities
            summing to 1 over the last axis.
        logit: Variable or array of the same shape, unnormalised log
            probabilities; give it instead of ``p``.
    """

    def __init__(self, p=None, logit=None):
        if utils.one_of('Categorical', p=p, logit=logit) == 'p':
            name, domain, value = 'p', 'probability', p
        else:
            name, domain, value = 'logit', None, logit
        value, = utils.parameters('Categorical', event_ndims={name: 1},
                                  **{name: (value, domain)})
        if value.ndim == 0:
            raise ValueError(f'Categorical: {name} must have at least one '
                             f'axis (the classes), got a 0-dim array')
        self._p = value if name == 'p' else None
        self._logit = value if name == 'logit' else None
        self._batch_shape = value.shape[:-1]

    @property
    def p(self):
        """The class probabilities."""
        if self._p is None:
            return F.softmax(self._logit, axis=-1)
        return self._p

    @property
    def log_p(self):
        """Log of the class probabilities."""
        if self._p is None:
            return F.log_softmax(self._logit, axis=-1)
        return F.log(self._p)

    @property
    def params(self):
        return {'p': self.p}

    def log_prob(self, x):
        log_p = self.log_p
        classes = log_p.shape[-1]
        x = _class_indices(utils.as_array(x), classes)
        table = F.broadcast_to(log_p, x.shape + (classes,))
        chosen = F.select_item(F.reshape(table, (-1, classes)),
                               x.reshape(-1).astype(numpy.int32))
        return F.reshape(chosen, x.shape)

    @property
    def mode(self):
        return utils.constant(self.xp.argmax(self.p.array, axis=-1))

    @property
    def entropy(self):
        return -F.sum(utils.xlogx(self.p), axis=-1)

    def sample_n(self, n):
        log_p = self.log_p.array
        shape = utils.sample_shape(n, log_p.shape)
        scores = log_p + utils.noise(self.xp, 'gumbel', shape, log_p.dtype)
        return utils.constant(scores.argmax(axis=-1))


def kl(p, q):
    """KL divergence between two categoricals given by their ``p`` and
    ``log_p`` (Categorical or OneHotCategorical)."""
    return F.sum(utils.xlogx(p.p) - p.p * q.log_p, axis=-1)


registry.register_kl(Categorical, Categorical)(kl)
