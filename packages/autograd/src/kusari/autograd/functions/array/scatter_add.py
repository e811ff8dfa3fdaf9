"""Adding values into indexed elements of an array."""
import numpy

from kusari.array import lazy_cupy
from kusari.autograd import function_node
from kusari.autograd.functions.array import get_item as get_item_module
from kusari.autograd.functions.array._scatter import scatter_add as add_at
from kusari.autograd.functions.array.get_item import get_item
from kusari.autograd.utils import type_check


class ScatterAdd(function_node.FunctionNode):
    """``y = a; y[slices] += b``, repeated indices accumulating."""

    def __init__(self, slices):
        self.slices = slices

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('a', 'b'))
        type_check.expect(in_types[0].dtype == in_types[1].dtype)

    def forward(self, inputs):
        a, b = inputs
        return add_at(a.copy(), self.slices, b),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(gy)
        if 1 in indexes:
            ret.append(get_item(gy, self.slices))
        return ret


def _selected_shape(shape, slices):
    """The shape of ``a[slices]`` for ``a`` of ``shape``, computed on a
    zero-stride stand-in (None when the index lives on a GPU).

    As in Chainer, two Ellipses are a ValueError and more indexed axes
    than ``a`` has an InvalidType.
    """
    if sum(s is Ellipsis for s in slices) > 1:
        raise ValueError(f'scatter_add: only one Ellipsis is allowed in '
                         f'slices; got {slices}')
    indexed = sum(
        0 if s is None or s is Ellipsis else
        s.ndim if getattr(getattr(s, 'dtype', None), 'kind', '') == 'b' else 1
        for s in slices)
    if indexed > len(shape):
        raise type_check.InvalidType(
            f'a.ndim >= {indexed}', f'a.ndim = {len(shape)}',
            f'scatter_add: slices index {indexed} axes, but a has shape '
            f'{shape}')
    if any(lazy_cupy.is_cupy_array(s) for s in slices):
        return None
    stand_in = numpy.lib.stride_tricks.as_strided(
        numpy.zeros(1, dtype=bool), shape, (0,) * len(shape))
    try:
        return stand_in[slices].shape
    except IndexError as e:
        raise IndexError(f'scatter_add: {e} (a has shape {shape})') \
            from None


@type_check.checks_inputs
def scatter_add(a, slices, b):
    """Add ``b`` to the elements ``a[slices]``, as ``numpy.add.at``: an
    element indexed several times receives every addition.

    Args:
        a: Variable or array.
        slices: an index as :func:`get_item` takes.
        b: Variable or array of the dtype of ``a`` and the shape of
            ``a[slices]``.

    Returns:
        Variable of the shape of ``a``; ``a`` itself is not modified.
    """
    slices = get_item_module._normalize(slices)
    expected = _selected_shape(a.shape, slices)
    if expected is not None and b.shape != expected:
        raise ValueError(f'scatter_add: b must have the shape of '
                         f'a[slices], {expected}; got {b.shape}')
    y, = ScatterAdd(slices).apply((a, b))
    return y
