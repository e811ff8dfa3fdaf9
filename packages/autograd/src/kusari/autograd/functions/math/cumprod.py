"""Cumulative product along an axis."""
from kusari.array import backend
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.array.where import where
from kusari.autograd.functions.math.cumsum import Scan
from kusari.autograd.functions.math.cumsum import reverse_cumsum


class Cumprod(Scan):
    """y_i = x_0 * ... * x_i along the axis.

    The gradient, ``gx_k = sum_{i >= k} gy_i * y_i / x_k``, is computed
    by that division except at zeros: at the first zero of a lane it is
    the same sum with that factor left out of the products, and after it
    every product holds the zero.
    """

    name = 'cumprod'

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        return xp.cumprod(x, axis=self.axis),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        in_shape = x.shape
        axis = self.scan_axis()
        if self.axis is None:
            x = reshape(x, (-1,))
        xp = backend.get_array_module(x.array)
        zero = x.array == 0
        summed = reverse_cumsum(gy * y, axis)
        if not zero.any():
            return reshape(summed / x, in_shape),
        first_zero = zero & (xp.cumsum(zero, axis=axis) == 1)
        without_first_zero = cumprod(where(first_zero, 1.0, x), axis)
        at_first_zero = reverse_cumsum(gy * without_first_zero, axis)
        gx = where(first_zero, at_first_zero, summed / where(zero, 1.0, x))
        return reshape(gx, in_shape),


def cumprod(x, axis=None):
    """Cumulative product of the elements of ``x`` along ``axis``; the
    arguments and the result are those of :func:`~chainer.functions.cumsum`.
    """
    y, = Cumprod(axis).apply((x,))
    return y
