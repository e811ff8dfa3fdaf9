"""Multiplication by a scale broadcast along axes."""
from kusari.autograd.functions.math import _ufunc_nodes
from kusari.autograd.utils import type_check


@type_check.checks_inputs
def scale(x, y, axis=1):
    """Multiply ``x`` by ``y``, broadcasting ``y`` over the axes of ``x``
    it does not cover, as :func:`~chainer.functions.bias` adds it.

    For ``x`` of shape ``(2, 3, 4)`` and ``y`` of shape ``(3,)``,
    ``scale(x, y)`` multiplies every ``x[i, j, k]`` by ``y[j]``.
    """
    return x * _ufunc_nodes.broadcast_along_axis('scale', x, y, axis)
