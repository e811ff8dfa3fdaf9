"""Flattening to one axis."""
from kusari.autograd.functions.array.reshape import reshape


def flatten(x):
    """Flatten ``x`` into one axis, in C order.

    Args:
        x: Variable or array.

    Returns:
        Variable of shape ``(x.size,)``.
    """
    return reshape(x, (x.size,))
