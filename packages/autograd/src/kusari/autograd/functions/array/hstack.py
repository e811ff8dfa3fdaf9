"""Concatenation along the second axis (the first for vectors)."""
from kusari.autograd.functions.array.concat import concat_at_least
from kusari.autograd.utils import type_check


@type_check.checks_inputs
def hstack(xs):
    """Concatenate horizontally, as ``numpy.hstack``: along axis 1, or
    along axis 0 when the inputs are 1-D (0-D inputs count as 1-D).

    Args:
        xs: a sequence of Variables or arrays.

    Returns:
        Variable.
    """
    return concat_at_least('hstack', xs, 1, lambda shape: (1,),
                           lambda ndim: 0 if ndim == 1 else 1)
