"""Joining arrays along a new axis."""
from kusari.autograd.functions.array._stack_separate import Stack
from kusari.autograd.functions.array.concat import apply_join


def stack(xs, axis=0):
    """Join arrays of one shape along a new axis.

    Args:
        xs: a sequence of Variables or arrays of equal shape and dtype.
        axis: where the new axis goes, in ``[-ndim - 1, ndim]``.

    Returns:
        Variable with one more axis, of length ``len(xs)``.
    """
    return apply_join(Stack, 'stack', xs, axis)
