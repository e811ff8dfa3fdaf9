"""Concatenation along the first axis, vectors taken as rows."""
from kusari.autograd.functions.array.concat import concat_at_least
from kusari.autograd.utils import type_check


@type_check.checks_inputs
def vstack(xs):
    """Concatenate vertically, as ``numpy.vstack``: along axis 0, with
    1-D inputs of length N taken as ``(1, N)`` rows.

    Args:
        xs: a sequence of Variables or arrays.

    Returns:
        Variable of 2 or more axes.
    """
    return concat_at_least('vstack', xs, 2, lambda shape: (1,) + shape
                           if shape else (1, 1), 0)
