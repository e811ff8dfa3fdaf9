"""Concatenation along an axis, and the stacking functions built on it."""
import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.utils import type_check


def name_sequence(in_types, name):
    """Name inputs ``xs[0]``, ``xs[1]``... in type-check messages."""
    if not type_check.in_light_mode():
        type_check.argname(in_types,
                           tuple(f'{name}[{i}]' for i in range(len(in_types))))


def expect_sequence(in_types):
    """Check that a sequence ``xs`` of inputs is not empty, naming them in
    messages; returns the type of ``xs[0]``."""
    type_check.expect(in_types.size() > 0)
    name_sequence(in_types, 'xs')
    return in_types[0]


def apply_join(node_class, func_name, xs, axis):
    """Check ``xs`` (not empty) and ``axis`` (an int), then join xs with
    ``node_class(axis)``."""
    xs = tuple(xs)
    if not xs:
        raise ValueError(f'{func_name}: xs must hold at least one array')
    axis = _axes.check_int(func_name, 'axis', axis)
    y, = node_class(axis).apply(xs)
    return y


class Concat(function_node.FunctionNode):
    """Join arrays along an existing axis; the gradient splits back."""

    def __init__(self, axis):
        self.axis = axis

    def check_type_forward(self, in_types):
        first = expect_sequence(in_types)
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
        from kusari.autograd.functions.array.split_axis import split_axis
        bounds = numpy.cumsum(self._sizes[:-1]).tolist()
        return split_axis(gy, bounds, self.axis)


def concat(xs, axis=1):
    """Concatenate the arrays of ``xs`` along ``axis``.

    Args:
        xs: a sequence of Variables or arrays of one dtype, with equal
            shapes except along ``axis``.
        axis: the axis to join along (negative counts from the end).

    Returns:
        Variable whose ``axis`` is the sum of the inputs' along it.
    """
    return apply_join(Concat, 'concat', xs, axis)


def concat_at_least(func_name, xs, ndim, new_shape, axis):
    """Concatenate after giving every input ``ndim`` axes or more.

    Args:
        func_name: the public function, for messages.
        xs: the inputs.
        ndim: the minimum number of axes.
        new_shape: ``new_shape(shape)`` for inputs of fewer axes.
        axis: the axis to join along, or a callable of the first input's
            ndim (after promotion) giving it.
    """
    xs = tuple(xs)
    if not xs:
        raise ValueError(f'{func_name}: xs must hold at least one array')
    xs = tuple(x if x.ndim >= ndim else reshape(x, new_shape(x.shape))
               for x in xs)
    if callable(axis):
        axis = axis(xs[0].ndim)
    y, = Concat(axis).apply(xs)
    return y
