"""The nodes of concatenation and splitting along an axis: each is the
other's gradient. The public functions are in ``concat`` and
``split_axis``."""
import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array import _axes
from kusari.autograd.utils import type_check


def zeros_for_missing(grads, shapes, like):
    """Replace the None gradients by zeros of the given shapes."""
    xp = backend.get_array_module(like)
    return tuple(xp.zeros(shape, like.dtype) if g is None else g
                 for g, shape in zip(grads, shapes))


class Concat(function_node.FunctionNode):
    """Join arrays along an existing axis; the gradient splits back."""

    def __init__(self, axis):
        self.axis = axis

    def check_type_forward(self, in_types):
        first = _axes.expect_sequence(in_types)
        _axes.expect_axis(first, self.axis)
        axis = self.axis % len(type_check.eval(first.shape))
        for x_type in in_types[1:]:
            type_check.expect(x_type.dtype == first.dtype,
                              x_type.ndim == first.ndim)
            for d in range(len(type_check.eval(first.shape))):
                if d != axis:
                    type_check.expect(x_type.shape[d] == first.shape[d])

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        self._sizes = [x.shape[self.axis] for x in inputs]
        return xp.concatenate(inputs, axis=self.axis),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        if len(self._sizes) == 1:
            return gy,
        bounds = numpy.cumsum(self._sizes[:-1]).tolist()
        return SplitAxis(bounds, self.axis).apply((gy,))


class SplitAxis(function_node.FunctionNode):
    """Split an array into views along an axis, at indices or into equal
    sections; the gradient concatenates back."""

    def __init__(self, indices_or_sections, axis):
        self.indices_or_sections = indices_or_sections
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        _axes.expect_axis(x_type, self.axis)
        length = x_type.shape[self.axis]
        if isinstance(self.indices_or_sections, int):
            sections = type_check.make_variable(self.indices_or_sections,
                                                'sections')
            type_check.expect(length % sections == 0)
        elif self.indices_or_sections:
            largest = type_check.make_variable(
                max(self.indices_or_sections), 'max(indices)')
            type_check.expect(length >= largest)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self._in_shape = x.shape
        ys = xp.split(x, self.indices_or_sections, self.axis)
        self._out_shapes = [y.shape for y in ys]
        return tuple(ys)

    def backward(self, indexes, grad_outputs):
        like = next(g for g in grad_outputs if g is not None)
        gys = zeros_for_missing(grad_outputs, self._out_shapes, like.array)
        return Concat(self.axis).apply(gys)
