"""Reversing the rows."""
from kusari.autograd.functions.array.flip import flip_checked


def flipud(a):
    """Flip ``a`` up/down: reverse axis 0.

    Args:
        a: Variable or array of one or more axes.

    Returns:
        Variable of the same shape.
    """
    return flip_checked('flipud', a, 0)
