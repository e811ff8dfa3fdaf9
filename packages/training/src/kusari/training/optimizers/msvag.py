"""M-SVAG: stochastic variance-adapted gradient."""
import numpy

from kusari.training import optimizer
from kusari.training.optimizers import _elementwise, _formula

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.1
_default_hyperparam.beta = 0.9
_default_hyperparam.eta = 1.0
_default_hyperparam.weight_decay_rate = 0

# rho reaches 1 at the first step, where the variance estimate is 0 / 0;
# keeping it below 1 makes that estimate 0 (a factor of 1: a plain step).
_RHO_MAX = 0.9999


class MSVAGRule(_elementwise.Rule):
    """Update rule of :class:`MSVAG`::

        m += (1 - beta) * (grad - m)
        v += (1 - beta) * (grad ** 2 - v)
        mt, vt = m / (1 - beta ** t), v / (1 - beta ** t)
        rho = ((1 - beta) ** 2 * (1 - beta ** (2 * t))
               / ((1 - beta ** t) ** 2 * (1 - beta ** 2)))
        s = max(vt - mt ** 2, 0) / (1 - rho)
        factor = clip(mt ** 2 / (mt ** 2 + rho * s), 0, 1)
        param -= eta * (lr * factor * mt + weight_decay_rate * param)

    with ``rho`` at most 0.9999, and ``factor`` 0 where ``mt`` and ``s``
    are both 0.

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr, beta, eta, weight_decay_rate: as in :class:`MSVAG`.
    """

    formula = _formula.Formula('''
        m += (1 - beta) * (grad - m)
        v += (1 - beta) * (grad * grad - v)
        mt = m / correction
        mt2 = mt * mt
        variance = maximum(v / correction - mt2, 0)
        # Where denom is 0 so is mt2: 0 / tiny gives the factor 0.
        denom = maximum(variance * rho_ratio + mt2, tiny)
        factor = clip(mt2 / denom, 0, 1)
        param = param * (1 - eta * weight_decay_rate) - factor * mt * lr * eta
    ''')
    defaults = _default_hyperparam
    zero_state = ('m', 'v')

    def __init__(self, parent_hyperparam=None, lr=None, beta=None, eta=None,
                 weight_decay_rate=None):
        super().__init__(parent_hyperparam, lr=lr, beta=beta, eta=eta,
                         weight_decay_rate=weight_decay_rate)

    def scalars(self, param):
        """``correction = 1 - beta ** t``, ``rho_ratio = rho / (1 - rho)``
        and the compute dtype's smallest normal number ``tiny``."""
        beta, t = self.hyperparam.beta, self.t
        correction = 1.0 - beta ** t
        rho = min((1.0 - beta) ** 2 * (1.0 - beta ** (2 * t))
                  / (correction ** 2 * (1.0 - beta ** 2)), _RHO_MAX)
        dtype = _elementwise.compute_dtype(param.dtype)
        return {'correction': correction, 'rho_ratio': rho / (1 - rho),
                'tiny': numpy.finfo(dtype).tiny}


class MSVAG(_elementwise.Method,
            hyperparams=('lr', 'beta', 'eta', 'weight_decay_rate')):
    """M-SVAG (Balles and Hennig, "Dissecting Adam", arXiv:1705.07774):
    momentum SGD whose step is damped elementwise by the estimated relative
    variance of the gradient; with decoupled weight decay (``eta``,
    ``weight_decay_rate``) as in AdamW.

    Args:
        lr (float): learning rate.
        beta (float): decay rate of the first and second moments.
        eta (float): schedule multiplier (for warm restarts).
        weight_decay_rate (float): decoupled weight decay rate.
    """

    rule_class = MSVAGRule

    def __init__(self, lr=_default_hyperparam.lr,
                 beta=_default_hyperparam.beta, eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate):
        super().__init__(lr=lr, beta=beta, eta=eta,
                         weight_decay_rate=weight_decay_rate)
