"""Momentum SGD with momentum correction."""
from kusari.training.optimizers import _formula, _momentum


class CorrectedMomentumSGDRule(_momentum.Rule):
    """Update rule of :class:`CorrectedMomentumSGD`::

        v = momentum * v - grad
        param += lr * v

    The velocity does not include the learning rate, so changing the
    learning rate does not rescale the momentum already gathered.

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr, momentum: as in :class:`CorrectedMomentumSGD`.
    """

    formula = _formula.Formula('''
        v = v * momentum - grad
        param += lr * v
    ''')


class CorrectedMomentumSGD(_momentum.Method):
    """Momentum SGD with momentum correction (Goyal et al., "Accurate,
    Large Minibatch SGD", equation (9)): the velocity gathers gradients,
    and the learning rate scales only the step.

    Args:
        lr, momentum: as in :class:`~kusari.training.optimizers.MomentumSGD`.
    """

    rule_class = CorrectedMomentumSGDRule
