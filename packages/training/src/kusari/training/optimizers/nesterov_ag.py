"""Nesterov's accelerated gradient."""
import numpy

from kusari.training.optimizers import _elementwise, _fused_cpu
from kusari.training.optimizers import _momentum


class NesterovAGRule(_momentum.Rule):
    """Update rule of :class:`NesterovAG`, in the form of Bengio et al.
    (arXiv:1212.0901), which needs the gradient at the parameter only::

        v = momentum * v - lr * grad
        param += momentum ** 2 * v - (1 + momentum) * lr * grad

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr, momentum: as in :class:`NesterovAG`.
    """

    def update_core_cpu(self, param):
        hp = self.hyperparam
        lr, momentum = hp.lr, hp.momentum
        v = self.state['v']
        array = param.array
        if _fused_cpu.run('nesterov_ag', (param.grad, array, v),
                          (lr, momentum, momentum * momentum,
                           (1 + momentum) * lr)):
            return
        grad, (term,) = _elementwise.cpu_operands(param, 1)
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


class NesterovAG(_momentum.Method):
    """Nesterov's accelerated gradient (arXiv:1212.0901).

    Args:
        lr, momentum: as in :class:`~kusari.training.optimizers.MomentumSGD`.
    """

    rule_class = NesterovAGRule
