"""Momentum SGD."""
import numpy

from kusari.training.optimizers import _elementwise, _fused_cpu
from kusari.training.optimizers import _momentum


class MomentumSGDRule(_momentum.Rule):
    """Update rule of :class:`MomentumSGD`::

        v = momentum * v - lr * grad
        param += v

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr, momentum: as in :class:`MomentumSGD`.
    """

    def update_core_cpu(self, param):
        hp = self.hyperparam
        v = self.state['v']
        if _fused_cpu.run('momentum_sgd', (param.grad, param.array, v),
                          (hp.lr, hp.momentum)):
            return
        grad, (scaled,) = _elementwise.cpu_operands(param, 1)
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


class MomentumSGD(_momentum.Method):
    """Momentum SGD.

    Args:
        lr (float): learning rate.
        momentum (float): exponential decay rate of the velocity.
    """

    rule_class = MomentumSGDRule
