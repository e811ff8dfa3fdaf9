"""Simon Funk's SMORMS3."""
import numpy

from kusari.training import optimizer
from kusari.training.optimizers import _elementwise, _fused_cpu

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.001
_default_hyperparam.eps = 1e-16


class SMORMS3Rule(_elementwise.Rule):
    """Update rule of :class:`SMORMS3`::

        r = 1 / (mem + 1)
        g = (1 - r) * g + r * grad
        g2 = (1 - r) * g2 + r * grad ** 2
        x = g ** 2 / (g2 + eps)
        param -= grad * minimum(lr, x) / (sqrt(g2) + eps)
        mem = 1 + mem * (1 - x)

    with ``mem`` starting at ones.

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr (float): learning rate.
        eps (float): small value for numerical stability.
    """

    defaults = _default_hyperparam
    zero_state = ('g', 'g2')

    def __init__(self, parent_hyperparam=None, lr=None, eps=None):
        super().__init__(parent_hyperparam, lr=lr, eps=eps)

    def init_state(self, param):
        self.state['mem'] = param.device.xp.ones_like(param.array)
        super().init_state(param)

    def update_core_cpu(self, param):
        hp = self.hyperparam
        eps = hp.eps
        _elementwise.check_eps(self, eps, param.dtype)
        mem, g, g2 = self.state['mem'], self.state['g'], self.state['g2']
        if _fused_cpu.run('smorms3', (param.grad, param.array, mem, g, g2),
                          (hp.lr, eps, 1)):
            return
        grad, (r, keep, work) = _elementwise.cpu_operands(param, 3)
        numpy.add(mem, 1, out=r)
        numpy.divide(1, r, out=r)
        numpy.subtract(1, r, out=keep)
        g *= keep
        numpy.multiply(r, grad, out=work)
        g += work
        g2 *= keep
        work *= grad
        g2 += work
        x = r  # r is not needed any more
        numpy.multiply(g, g, out=x)
        numpy.add(g2, eps, out=work)
        x /= work
        numpy.subtract(1, x, out=work)
        mem *= work
        mem += 1
        numpy.minimum(x, hp.lr, out=x)
        x *= grad
        numpy.sqrt(g2, out=work)
        work += eps
        x /= work
        param.array -= x

    def update_core_gpu(self, param):
        hp = self.hyperparam
        _elementwise.check_eps(self, hp.eps, param.dtype)
        _elementwise.fused_kernel(
            'smorms3', ('grad',), ('lr', 'eps'), ('param', 'mem', 'g', 'g2'),
            '''compute_t gr = grad;
               compute_t r = 1 / ((compute_t)mem + 1);
               compute_t g_ = (1 - r) * (compute_t)g + r * gr;
               compute_t g2_ = (1 - r) * (compute_t)g2 + r * gr * gr;
               compute_t x = g_ * g_ / (g2_ + eps);
               param = (compute_t)param
                       - gr * min(lr, x) / (sqrt(g2_) + eps);
               mem = 1 + (compute_t)mem * (1 - x);
               g = g_;
               g2 = g2_;''',
            param.dtype)(param.grad, hp.lr, hp.eps, param.array,
                         self.state['mem'], self.state['g'],
                         self.state['g2'])


class SMORMS3(_elementwise.Method, hyperparams=('lr', 'eps')):
    """Simon Funk's SMORMS3 (http://sifter.org/~simon/journal/20150420.html):
    RMSprop with a per-element memory length and step limited by
    ``g ** 2 / g2``.

    Args:
        lr (float): learning rate.
        eps (float): small value for numerical stability.
    """

    rule_class = SMORMS3Rule

    def __init__(self, lr=_default_hyperparam.lr,
                 eps=_default_hyperparam.eps):
        super().__init__(lr=lr, eps=eps)
