"""Means over axes, plain or weighted."""
import math

from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.math import _reduction
from kusari.autograd.functions.math.sum import normalize_axis
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.utils.array import force_array
from kusari.autograd.variable import as_variable
from kusari.autograd.utils import type_check


class Mean(_reduction.Reduction):
    """Arithmetic mean over axes; the gradient is spread evenly."""

    name = 'mean'

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        # NumPy accumulates float16 means in float32.
        y = x.mean(axis=self.axis, keepdims=self.keepdims)
        return force_array(y, x.dtype),

    def backward(self, indexes, grad_outputs):
        shape = self._in_shape
        axes = range(len(shape)) if self.axis is None else self.axis
        count = math.prod(shape[a] for a in axes)
        # An empty reduced axis leaves x, and so its gradient, empty.
        gy = grad_outputs[0] * (1.0 / count) if count else grad_outputs[0]
        return self.unreduce(gy, shape),


def _weights_shape(x, axis, weights):
    """The shape ``weights`` broadcasts as against ``x``; raises naming
    average when it fits neither documented form."""
    if weights.shape == x.shape:
        return x.shape
    if axis is not None and len(axis) == 1 and weights.ndim == 1:
        a = axis[0]
        if -x.ndim <= a < x.ndim and weights.shape == (x.shape[a],):
            shape = [1] * x.ndim
            shape[a] = weights.shape[0]
            return tuple(shape)
    raise ValueError(
        f'average: weights must have the shape of x {x.shape}, or be 1-D '
        f'of length x.shape[axis] when axis is one int; got shape '
        f'{weights.shape} with axis={axis}')


@type_check.checks_inputs
def average(x, axis=None, weights=None, keepdims=False):
    """Mean of the elements of ``x`` over ``axis``, weighted if asked:
    :math:`\\sum_i w_i x_i / \\sum_i w_i`.

    Args:
        x: Variable or array, float.
        axis: None (all axes), an int or a tuple of ints.
        weights: None (all ones), or a Variable or array of the shape of
            ``x``, or 1-D of length ``x.shape[axis]`` when ``axis`` is an
            int. Gradients flow to it too.
        keepdims: keep the reduced axes as length-one axes.

    Returns:
        Variable of the reduced shape.
    """
    if weights is None:
        y, = Mean(axis, keepdims).apply((x,))
        return y
    x = as_variable(x)
    axes = normalize_axis('average', axis)
    shape = _weights_shape(x, axes, weights)
    weights = broadcast_to(reshape(weights, shape), x.shape)
    total = sum_(x * weights, axis=axes, keepdims=keepdims)
    return total / sum_(weights, axis=axes, keepdims=keepdims)


mean = average
