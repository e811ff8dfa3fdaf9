"""Splitting an array into its slices along an axis."""
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array.split_axis import zeros_for_missing
from kusari.autograd.functions.array.stack import stack


class Separate(_axes.AlongAxis):
    """The slices ``x[..., i, ...]`` along an axis (views); the gradient
    stacks back."""

    def forward(self, inputs):
        x, = inputs
        axis = self.axis % x.ndim
        self._out_shape = x.shape[:axis] + x.shape[axis + 1:]
        lead = (slice(None),) * axis
        return tuple(x[lead + (i, Ellipsis)] for i in range(x.shape[axis]))

    def backward(self, indexes, grad_outputs):
        like = next(g for g in grad_outputs if g is not None)
        gys = zeros_for_missing(grad_outputs,
                                [self._out_shape] * len(grad_outputs),
                                like.array)
        return stack(gys, self.axis),


def separate(x, axis=0):
    """Separate ``x`` into its slices along ``axis``.

    Args:
        x: Variable or array.
        axis: the axis to separate along.

    Returns:
        A tuple of ``x.shape[axis]`` Variables, each without that axis.
    """
    axis = _axes.check_int('separate', 'axis', axis)
    return Separate(axis).apply((x,))
