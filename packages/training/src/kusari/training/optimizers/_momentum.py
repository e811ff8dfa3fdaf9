"""What the momentum methods (MomentumSGD, CorrectedMomentumSGD,
NesterovAG) share: the hyperparameters ``lr`` and ``momentum``, and the
velocity ``v``."""
from kusari.training import optimizer
from kusari.training.optimizers import _elementwise

default_hyperparam = optimizer.Hyperparameter()
default_hyperparam.lr = 0.01
default_hyperparam.momentum = 0.9


class Rule(_elementwise.Rule):
    """Base of the momentum update rules.

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr (float): learning rate.
        momentum (float): decay rate of the velocity ``v``.
    """

    defaults = default_hyperparam
    zero_state = ('v',)

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam, lr=lr, momentum=momentum)


class Method(_elementwise.Method, hyperparams=('lr', 'momentum')):
    """Base of the momentum optimizers.

    Args:
        lr (float): learning rate.
        momentum (float): exponential decay rate of the velocity.
    """

    def __init__(self, lr=default_hyperparam.lr,
                 momentum=default_hyperparam.momentum):
        super().__init__(lr=lr, momentum=momentum)
