"""M-SVAG: stochastic variance-adapted gradient."""
import numpy

from kusari.training import optimizer
from kusari.training.optimizers import _elementwise, _fused_cpu

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

    defaults = _default_hyperparam
    zero_state = ('m', 'v')

    def __init__(self, parent_hyperparam=None, lr=None, beta=None, eta=None,
                 weight_decay_rate=None):
        super().__init__(parent_hyperparam, lr=lr, beta=beta, eta=eta,
                         weight_decay_rate=weight_decay_rate)

    def _scalars(self):
        """``(1 - beta ** t, rho)`` at this step."""
        beta, t = self.hyperparam.beta, self.t
        correction = 1.0 - beta ** t
        rho = ((1.0 - beta) ** 2 * (1.0 - beta ** (2 * t))
               / (correction ** 2 * (1.0 - beta ** 2)))
        return correction, min(rho, _RHO_MAX)

    def update_core_cpu(self, param):
        hp = self.hyperparam
        correction, rho = self._scalars()
        m, v = self.state['m'], self.state['v']
        if _fused_cpu.run(
                'msvag', (param.grad, param.array, m, v),
                (hp.lr, 1 - hp.beta, correction, rho / (1 - rho), hp.eta,
                 1 - hp.eta * hp.weight_decay_rate,
                 numpy.finfo(param.grad.dtype).tiny, 0, 1)):
            return
        grad, (mt, mt2, work) = _elementwise.cpu_operands(param, 3)
        _elementwise.update_moments(grad, m, v, 1 - hp.beta, 1 - hp.beta,
                                    work)
        numpy.divide(m, correction, out=mt)
        numpy.multiply(mt, mt, out=mt2)
        variance = work
        numpy.divide(v, correction, out=variance)
        variance -= mt2
        numpy.maximum(variance, 0, out=variance)
        variance *= rho / (1 - rho)
        denom = variance
        denom += mt2
        # Where denom is 0 so is mt2: 0 / tiny gives the factor 0.
        numpy.maximum(denom, numpy.finfo(denom.dtype).tiny, out=denom)
        factor = mt2
        factor /= denom
        numpy.clip(factor, 0, 1, out=factor)
        factor *= mt
        factor *= hp.lr
        _elementwise.descend_decoupled(param.array, factor, hp.eta,
                                       hp.weight_decay_rate)

    def update_core_gpu(self, param):
        hp = self.hyperparam
        correction, rho = self._scalars()
        _elementwise.fused_kernel(
            'msvag', ('grad',),
            ('lr', 'one_minus_beta1', 'one_minus_beta2', 'correction',
             'rho_ratio', 'eta', 'weight_decay_rate'),
            ('param', 'm', 'v'),
            _elementwise.MOMENTS_CUDA + '''
               compute_t mt = m_ / correction;
               compute_t mt2 = mt * mt;
               compute_t denom = mt2
                   + max(v_ / correction - mt2, (compute_t)0) * rho_ratio;
               compute_t factor = denom > 0 ? mt2 / denom : (compute_t)0;
               factor = min(max(factor, (compute_t)0), (compute_t)1);
               compute_t p = param;
               param = p - eta * (lr * factor * mt + weight_decay_rate * p);
            ''',
            param.dtype)(param.grad, hp.lr, 1 - hp.beta, 1 - hp.beta,
                         correction, rho / (1 - rho), hp.eta,
                         hp.weight_decay_rate, param.array, self.state['m'],
                         self.state['v'])


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
