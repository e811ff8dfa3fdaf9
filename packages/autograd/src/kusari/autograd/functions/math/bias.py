"""Addition of a bias broadcast along axes."""
from kusari.autograd.functions.math import _ufunc_nodes
from kusari.autograd.utils import type_check


@type_check.checks_inputs
def bias(x, y, axis=1):
    """Add ``y`` to ``x``, broadcasting ``y`` over the axes of ``x`` it
    does not cover: ``y``'s axes lie on those of ``x`` from ``axis`` on.

    For ``x`` of shape ``(2, 3, 4)`` and ``y`` of shape ``(3,)``,
    ``bias(x, y)`` adds ``y[j]`` to every ``x[i, j, k]``.

    Args:
        x: Variable or array: the input.
        y: Variable or array of the same dtype, with
            ``y.shape == x.shape[axis:axis + y.ndim]`` (or 1 where the two
            differ): the bias.
        axis (int): the first axis of ``x`` that ``y`` covers.

    Returns:
        Variable of ``x``'s shape and dtype.
    """
    return x + _ufunc_nodes.broadcast_along_axis('bias', x, y, axis)
