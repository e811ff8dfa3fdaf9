"""A strided view of the memory holding an array."""
import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array._remap import Remap
from kusari.autograd.functions.array._remap import strided_index
from kusari.autograd.utils import type_check


def _pointer(array):
    if isinstance(array, numpy.ndarray):
        return array.__array_interface__['data'][0]
    return array.data.ptr


def buffer_geometry(x):
    """``(buffer, offset, strides)``: a flat buffer holding ``x`` and
    where ``x`` lies in it, counted in elements.

    The buffer is the memory of the array ``x`` views when that array is
    C-contiguous and of the same dtype; otherwise ``x`` copied to C order.
    """
    base = x
    while base.base is not None and hasattr(base.base, 'dtype'):
        base = base.base
    itemsize = x.dtype.itemsize
    if base is not x and base.dtype == x.dtype and \
            base.flags.c_contiguous:
        offset = _pointer(x) - _pointer(base)
        if offset % itemsize == 0 and all(
                s % itemsize == 0 for s in x.strides):
            return (base.reshape(-1), offset // itemsize,
                    tuple(s // itemsize for s in x.strides))
    xp = backend.get_array_module(x)
    flat = xp.ascontiguousarray(x).reshape(-1)
    strides = tuple(int(numpy.prod(x.shape[i + 1:], dtype=numpy.int64))
                    for i in range(x.ndim))
    return flat, 0, strides


class AsStrided(function_node.FunctionNode):
    """View the buffer holding the input with a shape, strides and offset
    counted in elements; the gradient scatter-adds back into the input's
    elements (elements of the buffer outside the input get none)."""

    def __init__(self, shape, strides, storage_offset):
        self.shape = shape
        self.strides = strides
        self.storage_offset = storage_offset

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        buffer, offset, strides = buffer_geometry(x)
        start = offset if self.storage_offset is None \
            else self.storage_offset
        _check_bounds(self.shape, self.strides, start, buffer.size)
        self._geometry = (x.shape, offset, strides, start, buffer.size)
        itemsize = x.dtype.itemsize
        return xp.lib.stride_tricks.as_strided(
            buffer[start:], self.shape,
            tuple(s * itemsize for s in self.strides)),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        in_shape, offset, strides, start, size = self._geometry
        xp = backend.get_array_module(gy.array)
        source = strided_index(xp, self.shape, self.strides, start)
        target = strided_index(xp, in_shape, strides, offset)
        return Remap(source, target, size).apply((gy,))


def _check_bounds(shape, strides, start, size):
    if 0 in shape:
        return
    low = start + sum(min(0, (n - 1) * s) for n, s in zip(shape, strides))
    high = start + sum(max(0, (n - 1) * s) for n, s in zip(shape, strides))
    if low < 0 or high >= size:
        raise ValueError(
            f'as_strided: a view of shape {shape}, strides {strides} and '
            f'offset {start} reaches elements {low} to {high} of a buffer '
            f'of {size} elements')


def as_strided(x, shape, strides, storage_offset=None):
    """A view with the given shape, strides and offset of the memory
    holding ``x``.

    Strides and offset count elements of the buffer ``x`` views (its base
    array), not bytes; ``x``'s own view is ignored, except that a None
    offset starts where ``x`` starts. The view may overlap itself: the
    gradient of an element sums over every place it appears.

    Args:
        x: Variable or array.
        shape: tuple of non-negative ints.
        strides: tuple of ints, one per axis of ``shape``.
        storage_offset: the buffer element of ``y[0, ..., 0]``; None for
            the first element of ``x``.

    Returns:
        Variable of ``shape``.
    """
    shape = _axes.check_ints('as_strided', 'shape', shape, 0)
    strides = _axes.check_ints('as_strided', 'strides', strides)
    if len(shape) != len(strides):
        raise ValueError(f'as_strided: shape {shape} and strides '
                         f'{strides} differ in length')
    if storage_offset is not None:
        storage_offset = _axes.check_int('as_strided', 'storage_offset',
                                         storage_offset, 0)
    y, = AsStrided(shape, strides, storage_offset).apply((x,))
    return y
