"""Reversing the rows."""
from kusari.autograd.functions.array.flip import flip_checked
from kusari.autograd.utils import type_check


@type_check.checks_inputs
def flipud(a):
    """Flip ``a`` up/down: reverse axis 0.

    Args:
        a: Variable or array of one or more axes.

    Returns:
        Variable of the same shape.
    """
    return flip_checked('flipud', a, 0)
