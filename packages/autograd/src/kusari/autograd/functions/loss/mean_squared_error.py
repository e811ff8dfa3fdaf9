"""Mean squared error."""
from kusari.array import backend
from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.loss import _common
from kusari.autograd.functions.loss import _pairwise


class MeanSquaredError(_pairwise.PairwiseLoss):
    """y = sum((x0 - x1)^2) / size; dy/dx0 = 2 (x0 - x1) / size."""

    def forward(self, inputs):
        x0, x1 = inputs
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(x0)
        diff = xp.subtract(x0, x1, out=xp.empty_like(x0))
        return _common.summed_mean(
            xp, xp.square(diff, out=diff), x0.dtype),

    def grad_x0(self, gy):
        x0, x1 = self.get_retained_inputs()
        size = x0.size
        return broadcast_to(gy, x0.shape) * (x0 - x1) * (
            2.0 / size if size else 0.0)


def mean_squared_error(x0, x1):
    """Mean squared error :math:`\\frac{1}{N} \\sum_i (x_{0i} - x_{1i})^2`
    over all ``N`` elements.

    Args:
        x0: Variable or array, float.
        x1: Variable or array of the shape and dtype of ``x0``.

    Returns:
        Variable holding a scalar of the dtype of ``x0``.
    """
    return MeanSquaredError().apply((x0, x1))[0]
