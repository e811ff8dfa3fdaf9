"""Padding sequences of different lengths into one array."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array.get_item import get_item
from kusari.autograd.utils import type_check


class PadSequence(function_node.FunctionNode):
    """Rows ``y[i, :len(xs[i])] = xs[i]``, the rest ``padding``; the
    gradient of each input is its rows of the output gradient."""

    def __init__(self, length, padding):
        self.length = length
        self.padding = padding

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        _axes.name_sequence(in_types, 'xs')
        first = in_types[0]
        type_check.expect(first.ndim >= 1)
        for x_type in in_types:
            type_check.expect(x_type.dtype == first.dtype,
                              x_type.shape[1:] == first.shape[1:])
            if self.length is not None:
                type_check.expect(x_type.shape[0] <= type_check.make_variable(
                    self.length, 'length'))

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        length = self.length
        if length is None:
            length = max(len(x) for x in inputs)
        first = inputs[0]
        y = xp.empty((len(inputs), length) + first.shape[1:], first.dtype)
        # Cast as arrays cast: -1 wraps to the largest unsigned int, as
        # NumPy 1 (which Chainer ran on) did for xp.full.
        y[...] = xp.asarray(self.padding).astype(first.dtype)
        for i, x in enumerate(inputs):
            y[i, :len(x)] = x
        self._lengths = [len(x) for x in inputs]
        return y,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return tuple(get_item(gy, (i, slice(0, self._lengths[i])))
                     for i in indexes)


def pad_sequence(xs, length=None, padding=0):
    """Stack sequences of different lengths into one padded array.

    Args:
        xs: a sequence of Variables or arrays of one dtype, shapes
            ``(L_i, ...)`` equal after the first axis.
        length: the length of the padded axis (at least every ``L_i``);
            None for the longest ``L_i``.
        padding: the value of the padding, cast to the dtype of ``xs``
            as arrays are cast (``-1`` is the largest unsigned int).

    Returns:
        Variable of shape ``(len(xs), length, ...)``.
    """
    xs = tuple(xs)
    if not xs:
        raise ValueError('pad_sequence: xs must hold at least one array')
    if length is not None:
        length = _axes.check_int('pad_sequence', 'length', length, 0)
    y, = PadSequence(length, padding).apply(xs)
    return y
