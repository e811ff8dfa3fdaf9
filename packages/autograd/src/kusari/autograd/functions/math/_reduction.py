"""The shared shape of reductions over axes (max, min, mean, prod,
logsumexp): the axis argument, the type check, and how a reduced gradient
is spread back over the input's shape. Its type check also serves
arg-reductions and cumulative functions."""
from kusari.autograd import function_node
from kusari.autograd.functions.array.broadcast import broadcast_to
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.math.sum import expect_axes_in_range
from kusari.autograd.functions.math.sum import keepdims_shape
from kusari.autograd.functions.math.sum import normalize_axis
from kusari.autograd.utils import type_check


class AxisFunction(function_node.FunctionNode):
    """A function of one float input ``x`` along ``axis`` (reductions,
    arg-reductions, cumulative functions).

    Subclasses set ``name``, the public function named in errors, and
    check the rest of x's type in ``expect_input(x_type)``.
    """

    name = None

    @property
    def label(self):
        return self.name

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        self.expect_input(x_type)


class Reduction(AxisFunction):
    """A one-input float reduction over ``axis`` (None, an int or a tuple
    of ints), keeping the reduced axes when ``keepdims``."""

    def __init__(self, axis=None, keepdims=False):
        self.axis = normalize_axis(self.name, axis)
        self.keepdims = keepdims

    def expect_input(self, x_type):
        if self.axis is not None:
            expect_axes_in_range(x_type, self.axis)

    def kept_shape(self, in_shape):
        """The output's shape with the reduced axes kept as ones."""
        return keepdims_shape(in_shape, self.axis)

    def unreduce(self, reduced, in_shape):
        """A Variable of the output's shape broadcast back to the input's
        (the adjoint of summing over ``axis``)."""
        if not self.keepdims:
            reduced = reshape(reduced, self.kept_shape(in_shape))
        return broadcast_to(reduced, in_shape)
