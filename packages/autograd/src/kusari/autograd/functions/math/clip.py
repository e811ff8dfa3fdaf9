"""Clipping to an interval."""
import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.math._ufunc_nodes import check_float_input
from kusari.autograd.utils.array import force_array


class Clip(function_node.FunctionNode):
    """y = min(max(x, x_min), x_max); dy/dx = 1 inside [x_min, x_max]
    (bounds included), 0 outside."""

    def __init__(self, x_min, x_max):
        self.x_min = x_min
        self.x_max = x_max

    @property
    def label(self):
        return 'clip'

    def check_type_forward(self, in_types):
        check_float_input(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        # Bounds of x's dtype: a float64 bound must not promote the result.
        self._bounds = [None if bound is None else x.dtype.type(bound)
                        for bound in (self.x_min, self.x_max)]
        return force_array(xp.clip(x, *self._bounds), x.dtype),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0].array
        x_min, x_max = self._bounds
        if x_min is None:
            inside = x <= x_max
        elif x_max is None:
            inside = x >= x_min
        else:
            inside = backend.get_array_module(x).logical_and(
                x >= x_min, x <= x_max)
        return grad_outputs[0] * inside.astype(x.dtype),


def _check_bound(name, value):
    if value is not None and (
            isinstance(value, bool) or not isinstance(
                value, (int, float, numpy.integer, numpy.floating))):
        raise TypeError(f'clip: {name} must be a real scalar or None, got '
                        f'{type(value).__name__}')


def clip(x, x_min, x_max):
    """Clip the elements of ``x`` to the interval ``[x_min, x_max]``.

    The gradient is passed where ``x_min <= x <= x_max`` and is 0 elsewhere.

    Args:
        x: Variable or array, float.
        x_min (float or None): the lower bound; None for none.
        x_max (float or None): the upper bound; None for none. At least one
            bound is needed, and ``x_min < x_max``.

    Returns:
        Variable of the same shape and dtype.
    """
    _check_bound('x_min', x_min)
    _check_bound('x_max', x_max)
    if x_min is None and x_max is None:
        raise ValueError('clip: x_min and x_max are both None; give at '
                         'least one bound')
    if x_min is not None and x_max is not None and not x_min < x_max:
        raise ValueError(f'clip: x_min must be less than x_max, got '
                         f'x_min={x_min} and x_max={x_max}')
    return Clip(x_min, x_max).apply((x,))[0]
