"""Beta distribution."""
from kusari.autograd import functions as F
from kusari.distributions import distribution
from kusari.distributions import registry
from kusari.distributions import utils


class Beta(distribution.Distribution):
    """Beta distribution on ``[0, 1]``: density ``x^(a-1) (1-x)^(b-1) /
    B(a, b)``.

    Args:
        a: Variable or array, the first shape parameter (positive).
        b: Variable or array, the second shape parameter (positive).
    """

    def __init__(self, a, b):
        self.a, self.b = utils.parameters(
            'Beta', a=(a, 'positive'), b=(b, 'positive'))
        self._batch_shape = self.a.shape

    @property
    def params(self):
        return {'a': self.a, 'b': self.b}

    def log_prob(self, x):
        x_array = utils.as_array(x)
        return utils.log_prob_on_support(
            x, (x_array < 0) | (x_array > 1), 0.5,
            lambda x: ((self.a - 1) * F.log(x) + (self.b - 1) * F.log1p(-x)
                       - utils.log_beta(self.a, self.b)))

    @property
    def mean(self):
        return self.a / (self.a + self.b)

    @property
    def variance(self):
        total = self.a + self.b
        return self.a * self.b / (total ** 2 * (total + 1))

    @property
    def entropy(self):
        a, b = self.a, self.b
        return (utils.log_beta(a, b) - (a - 1) * F.digamma(a)
                - (b - 1) * F.digamma(b) + (a + b - 2) * F.digamma(a + b))

    @property
    def support(self):
        return '[0, 1]'

    def sample_n(self, n):
        shape = utils.sample_shape(n, self.batch_shape)
        draws = self.xp.random.beta(self.a.array, self.b.array, size=shape)
        return utils.constant(draws.astype(self.a.dtype, copy=False))


@registry.register_kl(Beta, Beta)
def _kl_beta_beta(p, q):
    p_total = p.a + p.b
    return (utils.log_beta(q.a, q.b) - utils.log_beta(p.a, p.b)
            + (p.a - q.a) * F.digamma(p.a) + (p.b - q.b) * F.digamma(p.b)
            + (q.a - p.a + q.b - p.b) * F.digamma(p_total))
