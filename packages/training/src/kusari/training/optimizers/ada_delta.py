"""Zeiler's ADADELTA."""
import numpy

from kusari.training import optimizer
from kusari.training.optimizers import _elementwise, _fused_cpu

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.rho = 0.95
_default_hyperparam.eps = 1e-6


class AdaDeltaRule(_elementwise.Rule):
    """Update rule of :class:`AdaDelta`::

        msg = rho * msg + (1 - rho) * grad ** 2
        dx = sqrt((msdx + eps) / (msg + eps)) * grad
        msdx = rho * msdx + (1 - rho) * dx ** 2
        param -= dx

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        rho (float): decay rate of both moving averages.
        eps (float): small value for numerical stability.
    """

    defaults = _default_hyperparam
    zero_state = ('msg', 'msdx')

    def __init__(self, parent_hyperparam=None, rho=None, eps=None):
        super().__init__(parent_hyperparam, rho=rho, eps=eps)

    def update_core_cpu(self, param):
        hp = self.hyperparam
        rho, eps = hp.rho, hp.eps
        _elementwise.check_eps(self, eps, param.dtype)
        msg, msdx = self.state['msg'], self.state['msdx']
        if _fused_cpu.run('ada_delta', (param.grad, param.array, msg, msdx),
                          (rho, 1 - rho, eps)):
            return
        grad, (dx, work) = _elementwise.cpu_operands(param, 2)
        numpy.multiply(grad, 1 - rho, out=work)
        work *= grad
        msg *= rho
        msg += work
        numpy.add(msdx, eps, out=dx)
        numpy.add(msg, eps, out=work)
        dx /= work
        numpy.sqrt(dx, out=dx)
        dx *= grad
        numpy.multiply(dx, 1 - rho, out=work)
        work *= dx
        msdx *= rho
        msdx += work
        param.array -= dx

    def update_core_gpu(self, param):
        hp = self.hyperparam
        _elementwise.check_eps(self, hp.eps, param.dtype)
        _elementwise.fused_kernel(
            'adadelta', ('grad',), ('one_minus_rho', 'eps'),
            ('param', 'msg', 'msdx'),
            '''compute_t g = grad;
               compute_t msg_ = (compute_t)msg
                                + one_minus_rho * (g * g - (compute_t)msg);
               msg = msg_;
               compute_t msdx_ = msdx;
               compute_t dx = sqrt((msdx_ + eps) / (msg_ + eps)) * g;
               msdx = msdx_ + one_minus_rho * (dx * dx - msdx_);
               param = (compute_t)param - dx;''',
            param.dtype)(param.grad, 1 - hp.rho, hp.eps, param.array,
                         self.state['msg'], self.state['msdx'])


class AdaDelta(_elementwise.Method, hyperparams=('rho', 'eps')):
    """Zeiler's ADADELTA (arXiv:1212.5701): steps scaled by the ratio of
    the moving RMS of past steps to that of the gradients, with no
    learning rate.

    Args:
        rho (float): decay rate of both moving averages.
        eps (float): small value for numerical stability.
    """

    rule_class = AdaDeltaRule

    def __init__(self, rho=_default_hyperparam.rho,
                 eps=_default_hyperparam.eps):
        super().__init__(rho=rho, eps=eps)
