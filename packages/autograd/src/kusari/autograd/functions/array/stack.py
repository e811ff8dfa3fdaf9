"""Joining arrays along a new axis."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array.concat import apply_join
from kusari.autograd.functions.array.concat import expect_sequence
from kusari.autograd.utils import type_check


class Stack(function_node.FunctionNode):
    """Stack arrays of one shape along a new axis; the gradient separates
    back."""

    def __init__(self, axis):
        self.axis = axis

    def check_type_forward(self, in_types):
        first = expect_sequence(in_types)
        _axes.expect_axis(first, self.axis, extra=1)
        for x_type in in_types[1:]:
            type_check.expect(x_type.dtype == first.dtype,
                              x_type.shape == first.shape)

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        return xp.stack(inputs, axis=self.axis),

    def backward(self, indexes, grad_outputs):
        from kusari.autograd.functions.array.separate import separate
        gy, = grad_outputs
        return separate(gy, self.axis)


def stack(xs, axis=0):
    """Join arrays of one shape along a new axis.

    Args:
        xs: a sequence of Variables or arrays of equal shape and dtype.
        axis: where the new axis goes, in ``[-ndim - 1, ndim]``.

    Returns:
        Variable with one more axis, of length ``len(xs)``.
    """
    return apply_join(Stack, 'stack', xs, axis)
