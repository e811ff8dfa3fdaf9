"""Product over axes."""
import math

from kusari.array import backend
from kusari.autograd.functions.array.concat import concat
from kusari.autograd.functions.array.flip import flip
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.array.swapaxes import permute
from kusari.autograd.functions.math import _reduction
from kusari.autograd.functions.math.cumprod import cumprod
from kusari.autograd.utils.array import force_array
from kusari.autograd.variable import Variable


class Prod(_reduction.Reduction):
    """Product over axes. The gradient of each element is the product of
    all the others, built from exclusive cumulative products from both
    ends, so zeros need no division."""

    name = 'prod'

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return force_array(x.prod(axis=self.axis, keepdims=self.keepdims)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if x.size == 0:
            xp = backend.get_array_module(x.array)
            return Variable(xp.zeros(x.shape, x.dtype)),
        ndim = x.ndim
        reduced = tuple(range(ndim)) if self.axis is None else tuple(
            sorted(a % ndim for a in self.axis))
        kept = tuple(a for a in range(ndim) if a not in reduced)
        order = reduced + kept
        moved_shape = tuple(x.shape[a] for a in order)
        count = math.prod(x.shape[a] for a in reduced)
        lanes = reshape(permute(x, order), (count, -1))
        others = _exclusive_cumprod(lanes) * flip(
            _exclusive_cumprod(flip(lanes, 0)), 0)
        gx = others * reshape(gy, (1, -1))
        inverse = [order.index(a) for a in range(ndim)]
        return permute(reshape(gx, moved_shape), inverse),


def _exclusive_cumprod(x):
    """``z_i = x_0 * ... * x_{i-1}`` along the first axis (``z_0 = 1``)."""
    xp = backend.get_array_module(x.array)
    ones = xp.ones((1,) + x.shape[1:], x.dtype)
    return cumprod(concat((ones, x[:-1]), axis=0), axis=0)


def prod(x, axis=None, keepdims=False):
    """Product of the elements of ``x`` over ``axis``; the arguments and
    the result are those of :func:`~chainer.functions.max`."""
    y, = Prod(axis, keepdims).apply((x,))
    return y
