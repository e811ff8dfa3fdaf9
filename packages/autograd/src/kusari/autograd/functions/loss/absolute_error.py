"""Elementwise absolute error."""
from kusari.array import backend
from kusari.autograd.functions.activation._grad_nodes import ScaleGrad
from kusari.autograd.functions.loss import _pairwise


class AbsoluteError(_pairwise.PairwiseLoss):
    """y = |x0 - x1|; dy/dx0 = sign(x0 - x1) = -dy/dx1."""

    def forward(self, inputs):
        x0, x1 = inputs
        xp = backend.get_array_module(x0)
        diff = xp.subtract(x0, x1, out=xp.empty_like(x0))
        self._sign = xp.sign(diff)
        return xp.abs(diff, out=diff),

    def grad_x0(self, gy):
        return ScaleGrad(self._sign).apply((gy,))[0]


def absolute_error(x0, x1):
    """Elementwise absolute error :math:`|x_0 - x_1|`; the arguments and
    the result are those of :func:`~chainer.functions.squared_error`."""
    return AbsoluteError().apply((x0, x1))[0]
