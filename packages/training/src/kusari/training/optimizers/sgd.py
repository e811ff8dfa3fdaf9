"""Vanilla stochastic gradient descent."""
from kusari.training import optimizer
from kusari.training.optimizers import _elementwise, _formula

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01


class SGDRule(_elementwise.Rule):
    """Update rule of :class:`SGD`: ``param -= lr * grad``.

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr (float): learning rate.
    """

    formula = _formula.Formula('param -= lr * grad')
    defaults = _default_hyperparam

    def __init__(self, parent_hyperparam=None, lr=None):
        super().__init__(parent_hyperparam, lr=lr)


class SGD(_elementwise.Method, hyperparams=('lr',)):
    """Vanilla stochastic gradient descent.

    Args:
        lr (float): learning rate.
    """

    rule_class = SGDRule

    def __init__(self, lr=_default_hyperparam.lr):
        super().__init__(lr=lr)
