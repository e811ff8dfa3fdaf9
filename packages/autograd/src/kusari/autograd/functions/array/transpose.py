"""Permute the axes."""
import numpy

from kusari.autograd import function_node
from kusari.autograd.utils import type_check


class Transpose(function_node.FunctionNode):
    """Permute the axes of an array (reverse them when ``axes`` is None)."""

    def __init__(self, axes=None):
        self.axes = axes

    @property
    def label(self):
        return 'Transpose'

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        if self.axes is not None:
            type_check.expect(in_types[0].ndim == len(self.axes))

    def forward(self, inputs):
        x, = inputs
        return x.transpose(self.axes),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        if self.axes is None:
            return transpose(gy),
        return transpose(gy, tuple(numpy.argsort(self.axes).tolist())),


def transpose(x, axes=None):
    """Permute the axes of ``x``.

    Args:
        x: Variable or array.
        axes: a permutation of ``range(x.ndim)``; None reverses the axes.
            Negative axes count from the end.

    Returns:
        Variable with permuted axes.
    """
    if axes is not None:
        axes = tuple(axes)
        ndim = len(axes)
        normalized = tuple(a % ndim if -ndim <= a < ndim else a
                           for a in axes)
        if sorted(normalized) != list(range(ndim)):
            raise ValueError(f'transpose: axes must be a permutation of '
                             f'range({ndim}); got {axes}')
        axes = normalized
    y, = Transpose(axes).apply((x,))
    return y
