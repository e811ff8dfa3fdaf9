"""Alex Graves's RMSprop."""
import numpy

from kusari.training import optimizer
from kusari.training.optimizers import _elementwise, _fused_cpu

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 1e-4
_default_hyperparam.alpha = 0.95
_default_hyperparam.momentum = 0.9
_default_hyperparam.eps = 1e-4


class RMSpropGravesRule(_elementwise.Rule):
    """Update rule of :class:`RMSpropGraves`::

        n = alpha * n + (1 - alpha) * grad ** 2
        g = alpha * g + (1 - alpha) * grad
        delta = momentum * delta - lr * grad / sqrt(n - g ** 2 + eps)
        param += delta

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr (float): learning rate.
        alpha (float): decay rate of the moments ``n`` and ``g``.
        momentum (float): decay rate of the step ``delta``.
        eps (float): small value for numerical stability.
    """

    defaults = _default_hyperparam
    zero_state = ('n', 'g', 'delta')

    def __init__(self, parent_hyperparam=None, lr=None, alpha=None,
                 momentum=None, eps=None):
        super().__init__(parent_hyperparam, lr=lr, alpha=alpha,
                         momentum=momentum, eps=eps)

    def update_core_cpu(self, param):
        hp = self.hyperparam
        alpha = hp.alpha
        _elementwise.check_eps(self, hp.eps, param.dtype)
        n, g, delta = self.state['n'], self.state['g'], self.state['delta']
        if _fused_cpu.run('rmsprop_graves',
                          (param.grad, param.array, n, g, delta),
                          (hp.lr, alpha, 1 - alpha, hp.momentum, hp.eps)):
            return
        grad, (denom, step) = _elementwise.cpu_operands(param, 2)
        numpy.multiply(grad, 1 - alpha, out=step)
        g *= alpha
        g += step
        step *= grad
        n *= alpha
        n += step
        numpy.multiply(g, g, out=denom)
        numpy.subtract(n, denom, out=denom)
        denom += hp.eps
        numpy.sqrt(denom, out=denom)
        numpy.multiply(grad, hp.lr, out=step)
        step /= denom
        delta *= hp.momentum
        delta -= step
        param.array += delta

    def update_core_gpu(self, param):
        hp = self.hyperparam
        _elementwise.check_eps(self, hp.eps, param.dtype)
        _elementwise.fused_kernel(
            'rmsprop_graves', ('grad',), ('lr', 'alpha', 'momentum', 'eps'),
            ('param', 'n', 'g', 'delta'),
            '''compute_t gr = grad;
               compute_t n_ = alpha * (compute_t)n + (1 - alpha) * gr * gr;
               compute_t g_ = alpha * (compute_t)g + (1 - alpha) * gr;
               compute_t delta_ = momentum * (compute_t)delta
                                  - lr * gr / sqrt(n_ - g_ * g_ + eps);
               n = n_;
               g = g_;
               delta = delta_;
               param = (compute_t)param + delta_;''',
            param.dtype)(param.grad, hp.lr, hp.alpha, hp.momentum, hp.eps,
                         param.array, self.state['n'], self.state['g'],
                         self.state['delta'])


class RMSpropGraves(_elementwise.Method,
                    hyperparams=('lr', 'alpha', 'momentum', 'eps')):
    """Alex Graves's RMSprop (arXiv:1308.0850): steps divided by a moving
    standard deviation of the gradients, with momentum.

    Args:
        lr (float): learning rate.
        alpha (float): decay rate of the gradient moments.
        momentum (float): decay rate of the step.
        eps (float): small value for numerical stability.
    """

    rule_class = RMSpropGravesRule

    def __init__(self, lr=_default_hyperparam.lr,
                 alpha=_default_hyperparam.alpha,
                 momentum=_default_hyperparam.momentum,
                 eps=_default_hyperparam.eps):
        super().__init__(lr=lr, alpha=alpha, momentum=momentum, eps=eps)
