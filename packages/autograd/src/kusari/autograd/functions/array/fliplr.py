"""Reversing the columns."""
from kusari.autograd.functions.array.flip import flip_checked


def fliplr(a):
    """Flip ``a`` left/right: reverse axis 1.

    Args:
        a: Variable or array of two or more axes.

    Returns:
        Variable of the same shape.
    """
    return flip_checked('fliplr', a, 1)
