"""AdaGrad."""
import numpy

from kusari.training import optimizer
from kusari.training.optimizers import _elementwise, _fused_cpu

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.001
_default_hyperparam.eps = 1e-8


class AdaGradRule(_elementwise.Rule):
    """Update rule of :class:`AdaGrad`::

        h += grad ** 2
        param -= lr * grad / (sqrt(h) + eps)

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr (float): learning rate.
        eps (float): small value for numerical stability.
    """

    defaults = _default_hyperparam
    zero_state = ('h',)

    def __init__(self, parent_hyperparam=None, lr=None, eps=None):
        super().__init__(parent_hyperparam, lr=lr, eps=eps)

    def update_core_cpu(self, param):
        hp = self.hyperparam
        _elementwise.check_eps(self, hp.eps, param.dtype)
        h = self.state['h']
        if _fused_cpu.run('ada_grad', (param.grad, param.array, h),
                          (hp.lr, hp.eps)):
            return
        grad, (denom, step) = _elementwise.cpu_operands(param, 2)
        numpy.multiply(grad, grad, out=denom)
        h += denom
        numpy.sqrt(h, out=denom)
        denom += hp.eps
        _elementwise.descend_scaled(param.array, grad, hp.lr, denom, step)

    def update_core_gpu(self, param):
        hp = self.hyperparam
        _elementwise.check_eps(self, hp.eps, param.dtype)
        _elementwise.fused_kernel(
            'adagrad', ('grad',), ('lr', 'eps'), ('param', 'h'),
            '''compute_t g = grad;
               compute_t h_ = (compute_t)h + g * g;
               h = h_;
               param = (compute_t)param - lr * g / (sqrt(h_) + eps);''',
            param.dtype)(param.grad, hp.lr, hp.eps, param.array,
                         self.state['h'])


class AdaGrad(_elementwise.Method, hyperparams=('lr', 'eps')):
    """AdaGrad (Duchi et al., JMLR 2011): the step of each element shrinks
    with the sum of its squared gradients.

    Args:
        lr (float): learning rate.
        eps (float): small value for numerical stability.
    """

    rule_class = AdaGradRule

    def __init__(self, lr=_default_hyperparam.lr,
                 eps=_default_hyperparam.eps):
        super().__init__(lr=lr, eps=eps)
