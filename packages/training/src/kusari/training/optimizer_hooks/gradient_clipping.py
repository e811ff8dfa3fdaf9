"""Clipping of the global gradient norm."""
import math

from kusari.array import backend


def _sum_squares(arrays):
    """The sum of squares of all elements of ``arrays``, as a float; one
    transfer per device."""
    totals = {}
    for array in arrays:
        flat = array.ravel()
        device = array.device
        square = flat.dot(flat)
        totals[device] = square if device not in totals \
            else totals[device] + square
    return sum(float(total) for total in totals.values())


class GradientClipping:
    """Hook scaling all gradients down so that their global L2 norm is at
    most ``threshold`` (nothing happens below it).

    Args:
        threshold (float): the largest norm let through.

    Attributes:
        threshold (float): the largest norm let through.
        timing (str): ``'pre'`` (before the updates) or ``'post'``.
    """

    name = 'GradientClipping'
    timing = 'pre'

    def __init__(self, threshold):
        self.threshold = threshold

    def __call__(self, opt):
        grads = [param.grad for param in opt.target.params(False)
                 if param.grad is not None]
        norm = math.sqrt(_sum_squares(grads))
        if norm == 0:
            return
        rate = self.threshold / norm
        if rate < 1:
            for grad in grads:
                with backend.get_device_from_array(grad):
                    grad *= rate
