"""Mean absolute error."""
from kusari.array import backend
from kusari.autograd.functions.activation._grad_nodes import ScaleGrad
from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.loss import _common
from kusari.autograd.functions.loss import _pairwise


class MeanAbsoluteError(_pairwise.PairwiseLoss):
    """y = sum|x0 - x1| / size; dy/dx0 = sign(x0 - x1) / size."""

    def forward(self, inputs):
        x0, x1 = inputs
        xp = backend.get_array_module(x0)
        diff = xp.subtract(x0, x1, out=xp.empty_like(x0))
        size = diff.size
        self._shape = diff.shape
        self._slope = xp.sign(diff)
        if size:
            self._slope *= x0.dtype.type(1 / size)
        return _common.summed_mean(xp, xp.abs(diff, out=diff), x0.dtype),

    def grad_x0(self, gy):
        return ScaleGrad(self._slope).apply(
            (broadcast_to(gy, self._shape),))[0]


def mean_absolute_error(x0, x1):
    """Mean absolute error :math:`\\frac{1}{N} \\sum_i |x_{0i} - x_{1i}|`
    over all ``N`` elements; the arguments and the result are those of
    :func:`~chainer.functions.mean_squared_error`."""
    return MeanAbsoluteError().apply((x0, x1))[0]
