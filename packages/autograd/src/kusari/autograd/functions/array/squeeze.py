"""Removing length-one axes."""
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.utils import type_check


@type_check.checks_inputs
def squeeze(x, axis=None):
    """Remove axes of length one from ``x``.

    Args:
        x: Variable or array.
        axis: None (every length-one axis), an int or a tuple of ints;
            each named axis must have length one.

    Returns:
        Variable without those axes.
    """
    shape = x.shape
    if axis is None:
        axes = tuple(i for i, s in enumerate(shape) if s == 1)
    else:
        axes = _axes.normalize_axes('squeeze', 'axis', axis, len(shape))
        for a in axes:
            if shape[a] != 1:
                raise ValueError(f'squeeze: axis {a} of x has length '
                                 f'{shape[a]}, not 1 (x has shape {shape})')
    return reshape(x, tuple(s for i, s in enumerate(shape) if i not in axes))
