"""Rolling an axis backwards to a position."""
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array.swapaxes import permute
from kusari.autograd.utils import type_check


@type_check.checks_inputs
def rollaxis(x, axis, start=0):
    """Move ``axis`` of ``x`` so that it lies before ``start``, as
    ``numpy.rollaxis``.

    Args:
        x: Variable or array.
        axis: the axis to move.
        start: the axis it goes before, in ``[-x.ndim, x.ndim]``.

    Returns:
        Variable with the axis moved.
    """
    axis = _axes.normalize_axis('rollaxis', 'axis', axis, x.ndim)
    # Unlike an axis, a negative start counts from ndim: -1 is ndim - 1.
    start = _axes.check_int('rollaxis', 'start', start)
    if start < 0:
        start = _axes.normalize_axis('rollaxis', 'start', start, x.ndim)
    else:
        start = _axes.normalize_axis('rollaxis', 'start', start, x.ndim,
                                     extra=1)
    order = [a for a in range(x.ndim) if a != axis]
    order.insert(start - 1 if axis < start else start, axis)
    return permute(x, order)
