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
    # The chain of bases may pass through objects that are not arrays
    # (the holder of an array interface a strided view is made from).
    base = x
    holder = x.base
    while holder is not None:
        if hasattr(holder, 'dtype'):
            base = holder
        holder = getattr(holder, 'base', None)
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
    counted in elements; the gradient scatter-adds into the buffer and
    gathers the input's elements from it (elements of the buffer outside
    the input get none). Where the input itself views one buffer element
    several times, those elements share its gradient equally, as in
    Chainer (so that they sum to it)."""

    def __init__(self, shape, strides, storage_offset):
        self.shape = shape
        self.strides = strides
        self.storage_offset = storage_offset

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        buffer, offset, strides = buffer_geometry(x)
        start = offset if self.storage_offset is None \
            else self.storage_offset
        self._geometry = (x.shape, offset, strides, start, buffer.size)
        return _view(buffer, self.shape, self.strides, start),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        if gy.dtype.kind != 'f':
            raise TypeError(f'as_strided: only a float input has a '
                            f'gradient; got {gy.dtype}')
        in_shape, offset, strides, start, size = self._geometry
        xp = backend.get_array_module(gy.array)
        source = strided_index(xp, self.shape, self.strides, start)
        target = strided_index(xp, in_shape, strides, offset)
        count = xp.bincount(target.ravel(), minlength=size)
        weight = None
        if count.size and int(count.max()) > 1:
            weight = (1 / xp.maximum(count, 1)).astype(gy.dtype)
        return Remap(source, target, size, weight).apply((gy,))


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


def _view(buffer, shape, strides, start):
    """The view of the flat ``buffer`` with ``shape``, ``strides`` and
    offset ``start`` in elements (ValueError if it reaches outside)."""
    _check_bounds(shape, strides, start, buffer.size)
    xp = backend.get_array_module(buffer)
    itemsize = buffer.dtype.itemsize
    return xp.lib.stride_tricks.as_strided(
        buffer[start:], shape, tuple(s * itemsize for s in strides))


def _stride_array(array, shape, strides, storage_offset):
    """The view of the buffer holding ``array`` (see
    :func:`buffer_geometry`) with ``shape``, ``strides`` and
    ``storage_offset`` counted in elements: :func:`as_strided` on arrays,
    under the name Chainer gives it; ValueError if the view reaches
    outside the buffer."""
    buffer, _, _ = buffer_geometry(array)
    return _view(buffer, tuple(shape), tuple(strides), storage_offset)


@type_check.checks_inputs
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
