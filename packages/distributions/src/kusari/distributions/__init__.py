"""Probability distributions (``chainer.distributions``).

Densities, moments and reparameterised samples are differentiable with
respect to the parameters; :func:`kl_divergence` dispatches to the
closed forms registered with :func:`register_kl`.
"""
from kusari.distributions.bernoulli import Bernoulli  # NOQA
from kusari.distributions.beta import Beta  # NOQA
from kusari.distributions.categorical import Categorical  # NOQA
from kusari.distributions.cauchy import Cauchy  # NOQA
from kusari.distributions.chisquare import Chisquare  # NOQA
from kusari.distributions.dirichlet import Dirichlet  # NOQA
from kusari.distributions.distribution import Distribution  # NOQA
from kusari.distributions.exponential import Exponential  # NOQA
from kusari.distributions.gamma import Gamma  # NOQA
from kusari.distributions.geometric import Geometric  # NOQA
from kusari.distributions.gumbel import Gumbel  # NOQA
from kusari.distributions.independent import Independent  # NOQA
from kusari.distributions.laplace import Laplace  # NOQA
from kusari.distributions.log_normal import LogNormal  # NOQA
from kusari.distributions.multivariate_normal import MultivariateNormal  # NOQA
from kusari.distributions.normal import Normal  # NOQA
from kusari.distributions.one_hot_categorical import OneHotCategorical  # NOQA
from kusari.distributions.pareto import Pareto  # NOQA
from kusari.distributions.poisson import Poisson  # NOQA
from kusari.distributions.registry import cross_entropy  # NOQA
from kusari.distributions.registry import kl_divergence  # NOQA
from kusari.distributions.registry import register_kl  # NOQA
from kusari.distributions.uniform import Uniform  # NOQA

from kusari.array import parts as _parts

# __version__, read from the installed metadata when asked.
__getattr__ = _parts.module_getattr(__name__, 'kusari-distributions')
