"""Cumulative sum along an axis."""
from kusari.array import backend
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array.flip import flip
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.math import _reduction


def check_scan_axis(func_name, axis):
    """The ``axis`` of a cumulative function: None or an int."""
    if axis is None:
        return None
    return _axes.check_int(func_name, 'axis', axis)


class Scan(_reduction.AxisFunction):
    """Shared check and layout of cumulative functions: with ``axis``
    None they run over the flattened input, giving a 1-D output."""

    def __init__(self, axis=None):
        self.axis = check_scan_axis(self.name, axis)

    def expect_input(self, x_type):
        if self.axis is not None:
            _axes.expect_axis(x_type, self.axis)

    def scan_axis(self):
        """The axis the output runs along."""
        return 0 if self.axis is None else self.axis

class Cumsum(Scan):
    """y_i = x_0 + ... + x_i along the axis; the gradient is the reverse
    cumulative sum of gy."""

    name = 'cumsum'

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        return xp.cumsum(x, axis=self.axis),

    def backward(self, indexes, grad_outputs):
        gx = reverse_cumsum(grad_outputs[0], self.scan_axis())
        return reshape(gx, self._in_shape),


def reverse_cumsum(x, axis):
    """``z_i = x_i + ... + x_{n-1}`` along ``axis``: the adjoint of a
    cumulative sum."""
    return flip(cumsum(flip(x, axis), axis), axis)


def cumsum(x, axis=None):
    """Cumulative sum of the elements of ``x`` along ``axis``.

    Args:
        x: Variable or array, float.
        axis: an int, or None to run over the flattened ``x``.

    Returns:
        Variable of the shape of ``x``, or 1-D when ``axis`` is None.
    """
    y, = Cumsum(axis).apply((x,))
    return y
