"""Elementwise clipping of gradients."""
from kusari.array import backend


class GradientHardClipping:
    """Hook clipping every gradient element into
    ``[lower_bound, upper_bound]``.

    Args:
        lower_bound (float): the lower bound (None for none).
        upper_bound (float): the upper bound (None for none).

    Attributes:
        lower_bound, upper_bound (float): the bounds.
        timing (str): ``'pre'`` (before the update) or ``'post'``.
    """

    name = 'GradientHardClipping'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, lower_bound, upper_bound):
        if lower_bound is not None and upper_bound is not None \
                and lower_bound > upper_bound:
            raise ValueError(
                f'GradientHardClipping: lower_bound ({lower_bound!r}) must '
                f'not exceed upper_bound ({upper_bound!r})')
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def __call__(self, rule, param):
        grad = param.grad
        if grad is None:
            return
        backend.get_array_module(grad).clip(
            grad, self.lower_bound, self.upper_bound, out=grad)
