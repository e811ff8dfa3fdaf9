"""Zeiler's ADADELTA."""
from kusari.training import optimizer
from kusari.training.optimizers import _elementwise, _formula

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

    formula = _formula.Formula('''
        msg = msg * rho + grad * (1 - rho) * grad
        dx = sqrt((msdx + eps) / (msg + eps)) * grad
        msdx = msdx * rho + dx * (1 - rho) * dx
        param -= dx
    ''')
    defaults = _default_hyperparam
    zero_state = ('msg', 'msdx')

    def __init__(self, parent_hyperparam=None, rho=None, eps=None):
        super().__init__(parent_hyperparam, rho=rho, eps=eps)


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
