"""AdaGrad."""
from kusari.training import optimizer
from kusari.training.optimizers import _elementwise, _formula

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.001
_default_hyperparam.eps = 1e-8


class AdaGradRule(_elementwise.Rule):
    """Update rule of :class:`AdaGrad`::

        h += grad ** 2
        param -= lr * grad / (sqrt(h) + eps)

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr (float): learning rate.
        eps (float): small value for numerical stability.
    """

    formula = _formula.Formula('''
        h += grad * grad
        param -= lr * grad / (sqrt(h) + eps)
    ''')
    defaults = _default_hyperparam
    zero_state = ('h',)

    def __init__(self, parent_hyperparam=None, lr=None, eps=None):
        super().__init__(parent_hyperparam, lr=lr, eps=eps)


class AdaGrad(_elementwise.Method, hyperparams=('lr', 'eps')):
    """AdaGrad (Duchi et al., JMLR 2011): the step of each element shrinks
    with the sum of its squared gradients.

    Args:
        lr (float): learning rate.
        eps (float): small value for numerical stability.
    """

    rule_class = AdaGradRule

    def __init__(self, lr=_default_hyperparam.lr,
                 eps=_default_hyperparam.eps):
        super().__init__(lr=lr, eps=eps)
