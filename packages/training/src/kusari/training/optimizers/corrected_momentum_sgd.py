"""Momentum SGD with momentum correction."""
import numpy

from kusari.training import optimizer
from kusari.training.optimizers import _elementwise

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class CorrectedMomentumSGDRule(optimizer.UpdateRule):
    """Update rule of :class:`CorrectedMomentumSGD`::

        v = momentum * v - grad
        param += lr * v

    The velocity does not include the learning rate, so changing the
    learning rate does not rescale the momentum already gathered.

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
        grad, (step,) = _elementwise.cpu_operands(param, 1)
        v = self.state['v']
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


class CorrectedMomentumSGD(optimizer.GradientMethod):
    """Momentum SGD with momentum correction (Goyal et al., "Accurate,
    Large Minibatch SGD", equation (9)): the velocity gathers gradients,
    and the learning rate scales only the step.

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
        return CorrectedMomentumSGDRule(self.hyperparam)
