"""Weight decay (L2 regularization) on the gradient."""


class WeightDecay:
    """Hook adding ``rate * param`` to each gradient: the gradient of
    ``rate / 2 * ||param|| ** 2``.

    Args:
        rate (float): the coefficient.

    Attributes:
        rate (float): the coefficient.
        timing (str): ``'pre'`` (before the update) or ``'post'``.
    """

    name = 'WeightDecay'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate):
        self.rate = rate

    def __call__(self, rule, param):
        array, grad = param.array, param.grad
        if array is None or grad is None:
            return
        grad += self.rate * array
