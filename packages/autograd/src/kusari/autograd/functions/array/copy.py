"""Copying an array to a device."""
from kusari.array import backend
from kusari.array import cuda
from kusari.autograd import function_node
from kusari.autograd.utils import type_check


class Copy(function_node.FunctionNode):
    """Send the input to a device; the gradient goes back to the input's
    device."""

    def __init__(self, in_device, out_device):
        self.in_device = in_device
        self.out_device = out_device

    @property
    def label(self):
        return f'Copy({self.out_device})'

    def forward(self, inputs):
        x, = inputs
        return self.out_device.send_array(x),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return Copy(self.out_device, self.in_device).apply((gy,))


def copy(x, dst):
    """Copy ``x`` onto the device ``dst``; the gradient is copied back.

    An array already on ``dst`` is not copied.

    Args:
        x: Variable or array.
        dst: a device specifier: a Device, ``'@numpy'``, ``'@cupy:N'``, or
            an int (``-1`` for the CPU, ``N >= 0`` for GPU N);
            ``cuda.DummyDevice`` (the "device" of host arrays) means the
            CPU, as in Chainer.

    Returns:
        Variable on ``dst``.
    """
    if x is None:  # (apply takes None for an absent optional input)
        raise type_check.not_an_array('copy', 0, x)
    if dst is cuda.DummyDevice:
        dst = -1
    out_device = backend.get_device(dst)
    in_device = backend.get_device_from_array(x)
    y, = Copy(in_device, out_device).apply((x,))
    return y
