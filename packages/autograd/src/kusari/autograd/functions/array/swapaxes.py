"""Exchanging two axes."""
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array.transpose import transpose
from kusari.autograd.utils import type_check


def permute(x, order):
    """``transpose(x, order)``, or ``x`` as a Variable when ``order``
    keeps every axis in place."""
    if list(order) == list(range(x.ndim)):
        from kusari.autograd.variable import as_variable
        return as_variable(x)
    return transpose(x, tuple(order))


@type_check.checks_inputs
def swapaxes(x, axis1, axis2):
    """Exchange axes ``axis1`` and ``axis2`` of ``x``.

    Args:
        x: Variable or array.
        axis1, axis2: the axes (negative count from the end).

    Returns:
        Variable with the two axes swapped.
    """
    axis1 = _axes.normalize_axis('swapaxes', 'axis1', axis1, x.ndim)
    axis2 = _axes.normalize_axis('swapaxes', 'axis2', axis2, x.ndim)
    order = list(range(x.ndim))
    order[axis1], order[axis2] = axis2, axis1
    return permute(x, order)
