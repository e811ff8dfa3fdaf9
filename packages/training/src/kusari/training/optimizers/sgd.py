"""Vanilla stochastic gradient descent."""
import numpy

from kusari.training import optimizer
from kusari.training.optimizers import _elementwise, _fused_cpu

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01


class SGDRule(_elementwise.Rule):
    """Update rule of :class:`SGD`: ``param -= lr * grad``.

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr (float): learning rate.
    """

    defaults = _default_hyperparam

    def __init__(self, parent_hyperparam=None, lr=None):
        super().__init__(parent_hyperparam, lr=lr)

    def update_core_cpu(self, param):
        lr = self.hyperparam.lr
        if _fused_cpu.run('sgd', (param.grad, param.array), (lr,)):
            return
        grad, (step,) = _elementwise.cpu_operands(param, 1)
        numpy.multiply(grad, lr, out=step)
        param.array -= step

    def update_core_gpu(self, param):
        _elementwise.fused_kernel(
            'sgd', ('grad',), ('lr',), ('param',),
            'compute_t p = param; param = p - lr * (compute_t)grad;',
            param.dtype)(param.grad, self.hyperparam.lr, param.array)


class SGD(_elementwise.Method, hyperparams=('lr',)):
    """Vanilla stochastic gradient descent.

    Args:
        lr (float): learning rate.
    """

    rule_class = SGDRule

    def __init__(self, lr=_default_hyperparam.lr):
        super().__init__(lr=lr)
