"""Indexing with NumPy's basic and advanced indices."""
import numpy

from kusari.array import lazy_cupy
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array._scatter import scatter_add
from kusari.autograd.utils import type_check
from kusari.autograd.utils.array import force_array
from kusari.autograd.variable import Variable


def _normalize(slices):
    """Turn Variables inside an index into arrays; keep a tuple form."""
    if isinstance(slices, list):
        # NumPy 2 reads a list index, nested or empty, as one integer (or
        # boolean) array, so do we; an empty one ([], [[]]) as integers.
        slices = numpy.asarray(slices)
        if slices.size == 0:
            slices = slices.astype(numpy.intp)
    if not isinstance(slices, tuple):
        slices = (slices,)
    return tuple(s.array if isinstance(s, Variable) else s for s in slices)


class GetItem(function_node.FunctionNode):
    """``x[slices]``; the gradient scatters back into zeros."""

    def __init__(self, slices):
        self.slices = _normalize(slices)

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        self._in_dtype = x.dtype
        return force_array(x[self.slices]),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return GetItemGrad(self.slices, self._in_shape,
                           self._in_dtype).apply((gy,))


class GetItemGrad(function_node.FunctionNode):
    """Scatter-add a gradient into zeros of the indexed array's shape."""

    def __init__(self, slices, in_shape, in_dtype):
        self.slices = slices
        self._in_shape = in_shape
        self._in_dtype = in_dtype

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self._in_shape, self._in_dtype)
        scatter_add(gx, self.slices, gy)
        return gx,

    def backward(self, indexes, grad_outputs):
        ggx, = grad_outputs
        return get_item(ggx, self.slices),


@type_check.checks_inputs
def get_item(x, slices):
    """``x[slices]`` as a differentiable function.

    Args:
        x: Variable or array.
        slices: an int, slice, Ellipsis, None, integer or boolean array
            (or list), or a tuple of them, as NumPy accepts.

    Returns:
        Variable holding the selected elements.
    """
    node = GetItem(slices)
    _check_index(x.shape, node.slices)
    y, = node.apply((x,))
    return y


def _check_index(shape, slices):
    """Raise a clear IndexError for an index that does not fit ``shape``.

    The index is tried on a zero-stride stand-in of that shape, so the
    check allocates nothing; device-array indices are left to CuPy.
    """
    if any(lazy_cupy.is_cupy_array(s) for s in slices):
        return
    stand_in = numpy.lib.stride_tricks.as_strided(
        numpy.zeros(1, dtype=bool), shape, (0,) * len(shape))
    try:
        stand_in[slices]
    except IndexError as e:
        raise IndexError(f'get_item: {e} (x has shape {shape})') from None
