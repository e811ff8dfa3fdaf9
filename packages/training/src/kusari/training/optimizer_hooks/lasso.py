"""Lasso (L1 regularization) on the gradient."""
from kusari.array import backend
from kusari.training.optimizer_hooks import _penalty


class Lasso(_penalty.PenaltyHook):
    """Hook adding ``rate * sign(param)`` to each gradient: the
    (sub)gradient of ``rate * ||param||_1``.

    Args:
        rate (float): the coefficient.
    """

    name = 'Lasso'

    def penalty_grad(self, array):
        sign = backend.get_array_module(array).sign(array)
        sign *= self.rate
        return sign
