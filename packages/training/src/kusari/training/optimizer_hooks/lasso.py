"""Lasso (L1 regularization) on the gradient."""
from kusari.array import backend


class Lasso:
    """Hook adding ``rate * sign(param)`` to each gradient: the
    (sub)gradient of ``rate * ||param||_1``.

    Args:
        rate (float): the coefficient.

    Attributes:
        rate (float): the coefficient.
        timing (str): ``'pre'`` (before the update) or ``'post'``.
    """

    name = 'Lasso'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate):
        self.rate = rate

    def __call__(self, rule, param):
        array, grad = param.array, param.grad
        if array is None or grad is None:
            return
        sign = backend.get_array_module(array).sign(array)
        sign *= self.rate
        grad += sign
