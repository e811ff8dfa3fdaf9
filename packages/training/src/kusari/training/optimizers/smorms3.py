"""Simon Funk's SMORMS3."""
from kusari.training import optimizer
from kusari.training.optimizers import _elementwise, _formula

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

    formula = _formula.Formula('''
        r = 1 / (mem + 1)
        keep = 1 - r
        r_grad = r * grad
        g = g * keep + r_grad
        g2 = g2 * keep + r_grad * grad
        x = g * g / (g2 + eps)
        mem = mem * (1 - x) + 1
        param -= minimum(x, lr) * grad / (sqrt(g2) + eps)
    ''')
    defaults = _default_hyperparam
    zero_state = ('g', 'g2')

    def __init__(self, parent_hyperparam=None, lr=None, eps=None):
        super().__init__(parent_hyperparam, lr=lr, eps=eps)

    def init_state(self, param):
        self.state['mem'] = param.device.xp.ones_like(param.array)
        super().init_state(param)


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
