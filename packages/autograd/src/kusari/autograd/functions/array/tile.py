"""Tiling an array."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.math.sum import sum as sum_
from kusari.autograd.utils import type_check


class Tile(function_node.FunctionNode):
    """Repeat the whole array ``reps`` times along each axis, as
    ``numpy.tile``; the gradient sums the copies."""

    def __init__(self, reps):
        self.reps = reps

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        return backend.get_array_module(x).tile(x, self.reps),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        ndim = max(len(self._in_shape), len(self.reps))
        shape = (1,) * (ndim - len(self._in_shape)) + self._in_shape
        reps = (1,) * (ndim - len(self.reps)) + self.reps
        # Copy r of side s lies at index r * s + i: axes (r, s) in C order.
        split = sum(((r, s) for r, s in zip(reps, shape)), ())
        gx = sum_(reshape(gy, split), axis=tuple(range(0, 2 * ndim, 2)))
        return reshape(gx, self._in_shape),


@type_check.checks_inputs
def tile(x, reps):
    """Construct an array by repeating ``x`` ``reps`` times, as
    ``numpy.tile``.

    Args:
        x: Variable or array.
        reps: an int or a tuple of non-negative ints, one per axis (the
            shorter of ``reps`` and ``x.shape`` is padded with ones in
            front).

    Returns:
        Variable of ``max(x.ndim, len(reps))`` axes.
    """
    reps = _axes.check_ints('tile', 'reps', reps, 0)
    y, = Tile(reps).apply((x,))
    return y
