"""Flattening to one axis."""
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.utils import type_check


@type_check.checks_inputs
def flatten(x):
    """Flatten ``x`` into one axis, in C order.

    Args:
        x: Variable or array.

    Returns:
        Variable of shape ``(x.size,)``.
    """
    return reshape(x, (x.size,))
