"""Nesterov's accelerated gradient."""
from kusari.training.optimizers import _formula, _momentum


class NesterovAGRule(_momentum.Rule):
    """Update rule of :class:`NesterovAG`, in the form of Bengio et al.
    (arXiv:1212.0901), which needs the gradient at the parameter only::

        v = momentum * v - lr * grad
        param += momentum ** 2 * v - (1 + momentum) * lr * grad

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr, momentum: as in :class:`NesterovAG`.
    """

    formula = _formula.Formula('''
        v = v * momentum - grad * lr
        param = (param + v * (momentum * momentum)
                 - grad * ((1 + momentum) * lr))
    ''')


class NesterovAG(_momentum.Method):
    """Nesterov's accelerated gradient (arXiv:1212.0901).

    Args:
        lr, momentum: as in :class:`~kusari.training.optimizers.MomentumSGD`.
    """

    rule_class = NesterovAGRule
