"""Weight decay (L2 regularization) on the gradient."""
from kusari.training.optimizer_hooks import _penalty


class WeightDecay(_penalty.PenaltyHook):
    """Hook adding ``rate * param`` to each gradient: the gradient of
    ``rate / 2 * ||param|| ** 2``.

    Args:
        rate (float): the coefficient.
    """

    name = 'WeightDecay'

    def penalty_grad(self, array):
        return self.rate * array
