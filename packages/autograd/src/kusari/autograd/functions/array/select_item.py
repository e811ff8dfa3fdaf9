"""Picking one element per row."""
import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_array


class SelectItem(function_node.FunctionNode):
    """``y[i] = x[i, t[i]]``; the gradient goes back to those elements."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(t_type.dtype.kind == 'i', x_type.ndim == 2,
                          t_type.ndim == 1)
        type_check.expect(x_type.shape[0] == t_type.shape[0])

    def forward(self, inputs):
        x, t = inputs
        self.retain_inputs((1,))
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        return x[xp.arange(len(t)), t],

    def backward(self, indexes, grad_outputs):
        t, = self.get_retained_inputs()
        gx, = SelectItemGrad(self._in_shape).apply((grad_outputs[0], t))
        return gx, None


class SelectItemGrad(function_node.FunctionNode):
    """Zeros of ``(B, N)`` with ``gy[i]`` put at ``(i, t[i])``."""

    def __init__(self, shape):
        self.shape = shape

    def forward(self, inputs):
        gy, t = inputs
        self.retain_inputs((1,))
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self.shape, gy.dtype)
        gx[xp.arange(len(t)), t] = gy
        return gx,

    def backward(self, indexes, grad_outputs):
        t, = self.get_retained_inputs()
        return select_item(grad_outputs[0], t), None


@type_check.checks_inputs
def select_item(x, t):
    """Select one element per row: ``y[i] = x[i, t[i]]``.

    Args:
        x: Variable or array of shape ``(B, N)``.
        t: Variable or array of shape ``(B,)``, integers in ``[0, N)``.

    Returns:
        Variable of shape ``(B,)``.
    """
    t_array = as_array(t)
    if isinstance(t_array, numpy.ndarray) and t_array.dtype.kind == 'i' \
            and t_array.size and x.ndim == 2:
        low, high = int(t_array.min()), int(t_array.max())
        if low < 0 or high >= x.shape[1]:
            raise ValueError(f'select_item: t must hold indices in [0, '
                             f'{x.shape[1]}); got values in [{low}, '
                             f'{high}]')
    y, = SelectItem().apply((x, t))
    return y
