"""Geometric distribution: the number of trials up to the first
success."""
from kusari.autograd import functions as F
from kusari.distributions import distribution
from kusari.distributions import registry
from kusari.distributions import utils


class Geometric(distribution.Distribution):
    """Geometric distribution on ``{1, 2, ...}``: ``P(x) = (1 - p)^(x - 1)
    p``.

    Args:
        p: Variable or array, the success probability, in ``(0, 1]``.
    """

    def __init__(self, p):
        self.p, = utils.parameters('Geometric', p=(p, 'open_probability'))
        self._batch_shape = self.p.shape

    @property
    def params(self):
        return {'p': self.p}

    def log_prob(self, x):
        x = utils.as_float(x, self.p.dtype)
        return (x - 1) * F.log1p(-self.p) + F.log(self.p)

    @property
    def mean(self):
        return 1 / self.p

    @property
    def variance(self):
        return (1 - self.p) / self.p ** 2

    @property
    def entropy(self):
        return -(utils.xlogx(1 - self.p) + utils.xlogx(self.p)) / self.p

    @property
    def support(self):
        return 'positive integer'

    def sample_n(self, n):
        shape = utils.sample_shape(n, self.batch_shape)
        draws = self.xp.random.geometric(self.p.array, size=shape)
        return utils.constant(draws.astype(self.p.dtype))


@registry.register_kl(Geometric, Geometric)
def _kl_geometric_geometric(p, q):
    failures = (1 - p.p) / p.p
    return (failures * (F.log1p(-p.p) - F.log1p(-q.p))
            + F.log(p.p) - F.log(q.p))
