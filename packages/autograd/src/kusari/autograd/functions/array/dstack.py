"""Concatenation along the third (depth) axis."""
from kusari.autograd.functions.array.concat import concat_at_least
from kusari.autograd.utils import type_check


def _at_least_3d(shape):
    if len(shape) == 0:
        return (1, 1, 1)
    if len(shape) == 1:
        return (1,) + shape + (1,)
    return shape + (1,)


@type_check.checks_inputs
def dstack(xs):
    """Concatenate depth-wise, as ``numpy.dstack``: along axis 2, with
    ``(N,)`` inputs taken as ``(1, N, 1)`` and ``(M, N)`` as
    ``(M, N, 1)``.

    Args:
        xs: a sequence of Variables or arrays.

    Returns:
        Variable of 3 or more axes.
    """
    return concat_at_least('dstack', xs, 3, _at_least_3d, 2)
