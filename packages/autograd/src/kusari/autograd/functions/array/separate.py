"""Splitting an array into its slices along an axis."""
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array._stack_separate import Separate


def separate(x, axis=0):
    """Separate ``x`` into its slices along ``axis``.

    Args:
        x: Variable or array.
        axis: the axis to separate along.

    Returns:
        A tuple of ``x.shape[axis]`` Variables, each without that axis.
    """
    axis = _axes.check_int('separate', 'axis', axis)
    return Separate(axis).apply((x,))
