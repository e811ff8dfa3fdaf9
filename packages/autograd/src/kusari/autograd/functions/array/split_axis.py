"""Splitting along an axis; the adjoint of concatenation."""
import numbers

import numpy

from kusari.array import lazy_cupy
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array.concat import concat
from kusari.autograd.utils import type_check


def zeros_for_missing(grads, shapes, like):
    """Replace the None gradients by zeros of the given shapes."""
    xp = backend.get_array_module(like)
    return tuple(xp.zeros(shape, like.dtype) if g is None else g
                 for g, shape in zip(grads, shapes))


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
        return concat(gys, self.axis),


def split_axis(x, indices_or_sections, axis, force_tuple=True):
    """Split ``x`` along ``axis``.

    Args:
        x: Variable or array.
        indices_or_sections: an int N (split into N equal parts; the axis
            length must be divisible by N), or a sequence (or 1-D integer
            array) of non-negative indices in ascending order where the
            pieces begin, as ``numpy.split``.
        axis: the axis to split.
        force_tuple: return a tuple even when there is a single piece;
            otherwise a single piece is returned as a Variable.

    Returns:
        A tuple of Variables (or one Variable, see ``force_tuple``).
    """
    axis = _axes.check_int('split_axis', 'axis', axis)
    if isinstance(indices_or_sections, numbers.Integral) and not \
            isinstance(indices_or_sections, bool):
        indices_or_sections = _axes.check_int(
            'split_axis', 'indices_or_sections', indices_or_sections, 1)
    else:
        if isinstance(indices_or_sections, numpy.ndarray) or \
                lazy_cupy.is_cupy_array(indices_or_sections):
            indices_or_sections = backend.CpuDevice().send_array(
                indices_or_sections).tolist()
        indices_or_sections = list(_axes.check_ints(
            'split_axis', 'indices_or_sections', indices_or_sections, 0))
        if any(a > b for a, b in zip(indices_or_sections,
                                     indices_or_sections[1:])):
            # The pieces would overlap, and concatenating their gradients
            # would not give x's shape (Chainer checks this in debug mode).
            raise ValueError(
                f'split_axis: indices_or_sections must be sorted; got '
                f'{indices_or_sections}')
    ys = SplitAxis(indices_or_sections, axis).apply((x,))
    if len(ys) == 1 and not force_tuple:
        return ys[0]
    return ys
