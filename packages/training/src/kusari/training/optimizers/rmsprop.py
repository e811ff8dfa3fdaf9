"""RMSprop."""
import numpy

from kusari.training import optimizer
from kusari.training.optimizers import _elementwise, _fused_cpu

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.alpha = 0.99
_default_hyperparam.eps = 1e-8
_default_hyperparam.eps_inside_sqrt = False


class RMSpropRule(_elementwise.Rule):
    """Update rule of :class:`RMSprop`::

        ms = alpha * ms + (1 - alpha) * grad ** 2
        param -= lr * grad / (sqrt(ms) + eps)

    or ``/ sqrt(ms + eps)`` with ``eps_inside_sqrt``.

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr (float): learning rate.
        alpha (float): decay rate of the mean square ``ms``.
        eps (float): small value for numerical stability.
        eps_inside_sqrt (bool): add ``eps`` under the square root.
    """

    defaults = _default_hyperparam
    zero_state = ('ms',)

    def __init__(self, parent_hyperparam=None, lr=None, alpha=None,
                 eps=None, eps_inside_sqrt=None):
        super().__init__(parent_hyperparam, lr=lr, alpha=alpha, eps=eps,
                         eps_inside_sqrt=eps_inside_sqrt)

    def update_core_cpu(self, param):
        hp = self.hyperparam
        _elementwise.check_eps(self, hp.eps, param.dtype)
        ms = self.state['ms']
        if _fused_cpu.run('rmsprop', (param.grad, param.array, ms),
                          (hp.lr, hp.alpha, 1 - hp.alpha, hp.eps,
                           bool(hp.eps_inside_sqrt))):
            return
        grad, (denom, step) = _elementwise.cpu_operands(param, 2)
        numpy.multiply(grad, 1 - hp.alpha, out=denom)
        denom *= grad
        ms *= hp.alpha
        ms += denom
        if hp.eps_inside_sqrt:
            numpy.add(ms, hp.eps, out=denom)
            numpy.sqrt(denom, out=denom)
        else:
            numpy.sqrt(ms, out=denom)
            denom += hp.eps
        _elementwise.descend_scaled(param.array, grad, hp.lr, denom, step)

    def update_core_gpu(self, param):
        hp = self.hyperparam
        _elementwise.check_eps(self, hp.eps, param.dtype)
        denom = 'sqrt(ms_ + eps)' if hp.eps_inside_sqrt \
            else 'sqrt(ms_) + eps'
        _elementwise.fused_kernel(
            'rmsprop_inside' if hp.eps_inside_sqrt else 'rmsprop',
            ('grad',), ('lr', 'alpha', 'eps'), ('param', 'ms'),
            f'''compute_t g = grad;
                compute_t ms_ = alpha * (compute_t)ms + (1 - alpha) * g * g;
                ms = ms_;
                param = (compute_t)param - lr * g / ({denom});''',
            param.dtype)(param.grad, hp.lr, hp.alpha, hp.eps, param.array,
                         self.state['ms'])


class RMSprop(_elementwise.Method,
              hyperparams=('lr', 'alpha', 'eps', 'eps_inside_sqrt')):
    """RMSprop (Tieleman and Hinton, 2012): steps divided by a moving root
    mean square of the gradients.

    Args:
        lr (float): learning rate.
        alpha (float): decay rate of the mean square.
        eps (float): small value for numerical stability.
        eps_inside_sqrt (bool): divide by ``sqrt(ms + eps)`` instead of
            ``sqrt(ms) + eps`` (as some other frameworks do).
    """

    rule_class = RMSpropRule

    def __init__(self, lr=_default_hyperparam.lr,
                 alpha=_default_hyperparam.alpha, eps=_default_hyperparam.eps,
                 eps_inside_sqrt=_default_hyperparam.eps_inside_sqrt):
        super().__init__(lr=lr, alpha=alpha, eps=eps,
                         eps_inside_sqrt=eps_inside_sqrt)
