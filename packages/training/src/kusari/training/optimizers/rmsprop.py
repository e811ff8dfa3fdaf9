"""RMSprop."""
from kusari.training import optimizer
from kusari.training.optimizers import _elementwise, _formula

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.alpha = 0.99
_default_hyperparam.eps = 1e-8
_default_hyperparam.eps_inside_sqrt = False


class RMSpropRule(_elementwise.Rule):
    """Update rule of :class:`RMSprop`::

        ms = alpha * ms + (1 - alpha) * grad ** 2
        param -= lr * grad / (sqrt(ms) + eps)

    or ``/ sqrt(ms + eps)`` with ``eps_inside_sqrt``.

    Args:
        parent_hyperparam (Hyperparameter): defaults of the entries.
        lr (float): learning rate.
        alpha (float): decay rate of the mean square ``ms``.
        eps (float): small value for numerical stability.
        eps_inside_sqrt (bool): add ``eps`` under the square root.
    """

    formula = _formula.Formula('''
        ms = ms * alpha + grad * (1 - alpha) * grad
        denom = sqrt(ms + eps) if eps_inside_sqrt else sqrt(ms) + eps
        param -= lr * grad / denom
    ''')
    defaults = _default_hyperparam
    zero_state = ('ms',)

    def __init__(self, parent_hyperparam=None, lr=None, alpha=None,
                 eps=None, eps_inside_sqrt=None):
        super().__init__(parent_hyperparam, lr=lr, alpha=alpha, eps=eps,
                         eps_inside_sqrt=eps_inside_sqrt)


class RMSprop(_elementwise.Method,
              hyperparams=('lr', 'alpha', 'eps', 'eps_inside_sqrt')):
    """RMSprop (Tieleman and Hinton, 2012): steps divided by a moving root
    mean square of the gradients.

    Args:
        lr (float): learning rate.
        alpha (float): decay rate of the mean square.
        eps (float): small value for numerical stability.
        eps_inside_sqrt (bool): divide by ``sqrt(ms + eps)`` instead of
            ``sqrt(ms) + eps`` (as some other frameworks do).
    """

    rule_class = RMSpropRule

    def __init__(self, lr=_default_hyperparam.lr,
                 alpha=_default_hyperparam.alpha, eps=_default_hyperparam.eps,
                 eps_inside_sqrt=_default_hyperparam.eps_inside_sqrt):
        super().__init__(lr=lr, alpha=alpha, eps=eps,
                         eps_inside_sqrt=eps_inside_sqrt)
