"""Alex Graves's RMSprop."""
from kusari.training import optimizer
from kusari.training.optimizers import _elementwise, _formula

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 1e-4
_default_hyperparam.alpha = 0.95
_default_hyperparam.momentum = 0.9
_default_hyperparam.eps = 1e-4


class RMSpropGravesRule(_elementwise.Rule):
    """Update rule of :class:`RMSpropGraves`::

        n = alpha * n + (1 - alpha) * grad ** 2
        g = alpha * g + (1 - alpha) * grad
        delta = momentum * delta - lr * grad / sqrt(n - g ** 2 + eps)
        param += delta

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr (float): learning rate.
        alpha (float): decay rate of the moments ``n`` and ``g``.
        momentum (float): decay rate of the step ``delta``.
        eps (float): small value for numerical stability.
    """

    formula = _formula.Formula('''
        scaled = grad * (1 - alpha)
        g = g * alpha + scaled
        n = n * alpha + scaled * grad
        delta = delta * momentum - grad * lr / sqrt(n - g * g + eps)
        param += delta
    ''')
    defaults = _default_hyperparam
    zero_state = ('n', 'g', 'delta')

    def __init__(self, parent_hyperparam=None, lr=None, alpha=None,
                 momentum=None, eps=None):
        super().__init__(parent_hyperparam, lr=lr, alpha=alpha,
                         momentum=momentum, eps=eps)


class RMSpropGraves(_elementwise.Method,
                    hyperparams=('lr', 'alpha', 'momentum', 'eps')):
    """Alex Graves's RMSprop (arXiv:1308.0850): steps divided by a moving
    standard deviation of the gradients, with momentum.

    Args:
        lr (float): learning rate.
        alpha (float): decay rate of the gradient moments.
        momentum (float): decay rate of the step.
        eps (float): small value for numerical stability.
    """

    rule_class = RMSpropGravesRule

    def __init__(self, lr=_default_hyperparam.lr,
                 alpha=_default_hyperparam.alpha,
                 momentum=_default_hyperparam.momentum,
                 eps=_default_hyperparam.eps):
        super().__init__(lr=lr, alpha=alpha, momentum=momentum, eps=eps)
