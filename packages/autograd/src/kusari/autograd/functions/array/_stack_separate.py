"""The nodes of stacking along a new axis and separating along one: each
is the other's gradient. The public functions are in ``stack`` and
``separate``."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array._concat_split import zeros_for_missing
from kusari.autograd.utils import type_check


class Stack(function_node.FunctionNode):
    """Stack arrays of one shape along a new axis; the gradient separates
    back."""

    def __init__(self, axis):
        self.axis = axis

    def check_type_forward(self, in_types):
        first = _axes.expect_sequence(in_types)
        _axes.expect_axis(first, self.axis, extra=1)
        for x_type in in_types[1:]:
            type_check.expect(x_type.dtype == first.dtype,
                              x_type.shape == first.shape)

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        return xp.stack(inputs, axis=self.axis),

    def backward(self, indexes, grad_outputs):
        return Separate(self.axis).apply(grad_outputs)


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
        return Stack(self.axis).apply(gys)
