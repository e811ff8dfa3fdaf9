"""Inserting a length-one axis."""
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.utils import type_check


@type_check.checks_inputs
def expand_dims(x, axis):
    """Insert an axis of length one at ``axis``, without copying.

    Args:
        x: Variable or array.
        axis: the position of the new axis, in ``[-x.ndim - 1, x.ndim]``.

    Returns:
        Variable with one more axis.
    """
    axis = _axes.normalize_axis('expand_dims', 'axis', axis, x.ndim, extra=1)
    return reshape(x, x.shape[:axis] + (1,) + x.shape[axis:])
