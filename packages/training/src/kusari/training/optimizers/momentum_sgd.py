"""Momentum SGD."""
import numpy

from kusari.training import optimizer
from kusari.training.optimizers import _elementwise

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class MomentumSGDRule(optimizer.UpdateRule):
    """Update rule of :class:`MomentumSGD`::

        v = momentum * v - lr * grad
        param += v

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr (float): learning rate.
        momentum (float): decay rate of the velocity ``v``.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        optimizer.set_hyperparams(self.hyperparam, lr=lr, momentum=momentum)

    def init_state(self, param):
        self.state['v'] = param.device.xp.zeros_like(param.array)

    def update_core_cpu(self, param):
        hp = self.hyperparam
        grad, (scaled,) = _elementwise.cpu_operands(param, 1)
        v = self.state['v']
        v *= hp.momentum
        numpy.multiply(grad, hp.lr, out=scaled)
        v -= scaled
        param.array += v

    def update_core_gpu(self, param):
        hp = self.hyperparam
        _elementwise.fused_kernel(
            'momentum_sgd', ('grad',), ('lr', 'momentum'), ('param', 'v'),
            '''compute_t v_ = momentum * (compute_t)v
                              - lr * (compute_t)grad;
               v = v_;
               param = (compute_t)param + v_;''',
            param.dtype)(param.grad, hp.lr, hp.momentum, param.array,
                         self.state['v'])


class MomentumSGD(optimizer.GradientMethod):
    """Momentum SGD.

    Args:
        lr (float): learning rate.
        momentum (float): exponential decay rate of the velocity.
    """

    def __init__(self, lr=_default_hyperparam.lr,
                 momentum=_default_hyperparam.momentum):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.momentum = momentum

    lr = optimizer.HyperparameterProxy('lr')
    momentum = optimizer.HyperparameterProxy('momentum')

    def create_update_rule(self):
        return MomentumSGDRule(self.hyperparam)
