"""Permuting the slices of an array along an axis."""
import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array import _axes
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_array


class Permutate(function_node.FunctionNode):
    """``y[i] = x[indices[i]]`` along an axis (``y[indices[i]] = x[i]``
    when inverted); the gradient applies the inverse permutation."""

    def __init__(self, axis, inv):
        self.axis = axis
        self.inv = inv

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'indices'))
        x_type, ind_type = in_types
        type_check.expect(ind_type.dtype.kind == 'i', ind_type.ndim == 1)
        _axes.expect_axis(x_type, self.axis)
        type_check.expect(x_type.shape[self.axis] == ind_type.shape[0])

    def forward(self, inputs):
        x, indices = inputs
        self.retain_inputs((1,))
        xp = backend.get_array_module(x)
        if self.inv:
            indices = xp.argsort(indices)
        return xp.take(x, indices, axis=self.axis),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        indices, = self.get_retained_inputs()
        gx, = Permutate(self.axis, not self.inv).apply((gy, indices))
        return gx, None


def _check_permutation(indices):
    array = as_array(indices)
    if array is None or array.ndim != 1 or array.dtype.kind not in 'iu':
        return  # the type check reports these
    array = backend.CpuDevice().send_array(array)
    if not numpy.array_equal(numpy.sort(array), numpy.arange(len(array))):
        raise ValueError(f'permutate: indices must be a permutation of '
                         f'range({len(array)}); got {array}')


@type_check.checks_inputs
def permutate(x, indices, axis=0, inv=False):
    """Permute ``x`` along ``axis``: ``y[..., i, ...] =
    x[..., indices[i], ...]``; with ``inv``, the inverse permutation.

    Args:
        x: Variable or array.
        indices: 1-D integer array (or Variable), a permutation of
            ``range(x.shape[axis])``.
        axis: the axis to permute.
        inv: apply the inverse permutation.

    Returns:
        Variable of the shape of ``x``.
    """
    axis = _axes.check_int('permutate', 'axis', axis)
    _check_permutation(indices)
    y, = Permutate(axis, bool(inv)).apply((x, indices))
    return y
