"""Nesterov's accelerated gradient."""
import numpy

from kusari.training import optimizer
from kusari.training.optimizers import _elementwise

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class NesterovAGRule(optimizer.UpdateRule):
    """Update rule of :class:`NesterovAG`, in the form of Bengio et al.
    (arXiv:1212.0901), which needs the gradient at the parameter only::

        v = momentum * v - lr * grad
        param += momentum ** 2 * v - (1 + momentum) * lr * grad

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
        lr, momentum = hp.lr, hp.momentum
        grad, (term,) = _elementwise.cpu_operands(param, 1)
        v = self.state['v']
        array = param.array
        v *= momentum
        numpy.multiply(grad, lr, out=term)
        v -= term
        numpy.multiply(v, momentum * momentum, out=term)
        array += term
        numpy.multiply(grad, (1 + momentum) * lr, out=term)
        array -= term

    def update_core_gpu(self, param):
        hp = self.hyperparam
        _elementwise.fused_kernel(
            'nesterov_ag', ('grad',), ('lr', 'momentum'), ('param', 'v'),
            '''compute_t g = grad;
               compute_t v_ = momentum * (compute_t)v - lr * g;
               v = v_;
               param = (compute_t)param + momentum * momentum * v_
                       - (1 + momentum) * lr * g;''',
            param.dtype)(param.grad, hp.lr, hp.momentum, param.array,
                         self.state['v'])


class NesterovAG(optimizer.GradientMethod):
    """Nesterov's accelerated gradient (arXiv:1212.0901).

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
        return NesterovAGRule(self.hyperparam)
