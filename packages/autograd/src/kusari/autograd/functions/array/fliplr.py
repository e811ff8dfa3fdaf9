"""Reversing the columns."""
from kusari.autograd.functions.array.flip import flip_checked
from kusari.autograd.utils import type_check


@type_check.checks_inputs
def fliplr(a):
    """Flip ``a`` left/right: reverse axis 1.

    Args:
        a: Variable or array of two or more axes.

    Returns:
        Variable of the same shape.
    """
    return flip_checked('fliplr', a, 1)
