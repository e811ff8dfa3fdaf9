"""What the regularization hooks (WeightDecay, Lasso) share."""


class PenaltyHook:
    """Base of the hooks adding the gradient of a penalty on each parameter,
    scaled by ``rate``, to its gradient; a subclass defines
    :meth:`penalty_grad`.

    Args:
        rate (float): the coefficient.

    Attributes:
        rate (float): the coefficient.
        timing (str): ``'pre'`` (before the update) or ``'post'``.
    """

    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate):
        self.rate = rate

    def penalty_grad(self, array):
        """The gradient of ``rate`` times the penalty at ``array`` (a new
        array)."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement penalty_grad')

    def __call__(self, rule, param):
        array, grad = param.array, param.grad
        if array is None or grad is None:
            return
        grad += self.penalty_grad(array)
