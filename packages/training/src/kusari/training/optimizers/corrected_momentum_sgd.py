"""Momentum SGD with momentum correction."""
import numpy

from kusari.training.optimizers import _elementwise, _fused_cpu
from kusari.training.optimizers import _momentum


class CorrectedMomentumSGDRule(_momentum.Rule):
    """Update rule of :class:`CorrectedMomentumSGD`::

        v = momentum * v - grad
        param += lr * v

    The velocity does not include the learning rate, so changing the
    learning rate does not rescale the momentum already gathered.

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr, momentum: as in :class:`CorrectedMomentumSGD`.
    """

    def update_core_cpu(self, param):
        hp = self.hyperparam
        v = self.state['v']
        if _fused_cpu.run('corrected_momentum_sgd',
                          (param.grad, param.array, v),
                          (hp.lr, hp.momentum)):
            return
        grad, (step,) = _elementwise.cpu_operands(param, 1)
        v *= hp.momentum
        v -= grad
        numpy.multiply(v, hp.lr, out=step)
        param.array += step

    def update_core_gpu(self, param):
        hp = self.hyperparam
        _elementwise.fused_kernel(
            'corrected_momentum_sgd', ('grad',), ('lr', 'momentum'),
            ('param', 'v'),
            '''compute_t v_ = momentum * (compute_t)v - (compute_t)grad;
               v = v_;
               param = (compute_t)param + lr * v_;''',
            param.dtype)(param.grad, hp.lr, hp.momentum, param.array,
                         self.state['v'])


class CorrectedMomentumSGD(_momentum.Method):
    """Momentum SGD with momentum correction (Goyal et al., "Accurate,
    Large Minibatch SGD", equation (9)): the velocity gathers gradients,
    and the learning rate scales only the step.

    Args:
        lr, momentum: as in :class:`~kusari.training.optimizers.MomentumSGD`.
    """

    rule_class = CorrectedMomentumSGDRule
