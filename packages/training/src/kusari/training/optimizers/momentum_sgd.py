"""Momentum SGD."""
from kusari.training.optimizers import _formula, _momentum


class MomentumSGDRule(_momentum.Rule):
    """Update rule of :class:`MomentumSGD`::

        v = momentum * v - lr * grad
        param += v

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr, momentum: as in :class:`MomentumSGD`.
    """

    formula = _formula.Formula('''
        v = v * momentum - grad * lr
        param += v
    ''')


class MomentumSGD(_momentum.Method):
    """Momentum SGD.

    Args:
        lr (float): learning rate.
        momentum (float): exponential decay rate of the velocity.
    """

    rule_class = MomentumSGDRule
