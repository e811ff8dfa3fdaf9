"""The nodes that move data between channels and ``r x r`` pixel blocks
(sub-pixel convolution): depth to space and back, each the other's
gradient. The public functions are in ``depth2space`` and
``space2depth``."""
from kusari.autograd import function_node
from kusari.autograd.utils import type_check


def depth_to_space(x, r):
    """``(n, r * r * c, h, w)`` to ``(n, c, h * r, w * r)`` on arrays:
    channel ``(i * r + j) * c + k`` fills offset ``(i, j)`` of each
    ``r x r`` block of output channel ``k``."""
    n, channels, h, w = x.shape
    c = channels // (r * r)
    x = x.reshape(n, r, r, c, h, w).transpose(0, 3, 4, 1, 5, 2)
    return x.reshape(n, c, h * r, w * r)


def space_to_depth(x, r):
    """The inverse of :func:`depth_to_space`, on arrays."""
    n, c, h, w = x.shape
    x = x.reshape(n, c, h // r, r, w // r, r).transpose(0, 3, 5, 1, 2, 4)
    return x.reshape(n, r * r * c, h // r, w // r)


class BlockMove(function_node.FunctionNode):
    """Moving data between channels and ``r x r`` pixel blocks of a 4-D
    ``X``; subclasses check the divisibility of X's shape by ``r`` in
    ``expect_divisible(x_type, r)``."""

    def __init__(self, r):
        self.r = r

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('X',))
        x_type, = in_types
        r = type_check.make_variable(self.r, 'r')
        type_check.expect(x_type.ndim == 4)
        self.expect_divisible(x_type, r)


class Depth2Space(BlockMove):
    """Move channels into ``r x r`` pixel blocks; the gradient moves them
    back (:class:`Space2Depth`)."""

    def expect_divisible(self, x_type, r):
        type_check.expect(x_type.shape[1] % (r * r) == 0)

    def forward(self, inputs):
        return depth_to_space(inputs[0], self.r),

    def backward(self, indexes, grad_outputs):
        return Space2Depth(self.r).apply(grad_outputs)


class Space2Depth(BlockMove):
    """Move ``r x r`` pixel blocks into channels; the gradient moves them
    back (:class:`Depth2Space`)."""

    def expect_divisible(self, x_type, r):
        type_check.expect(x_type.shape[2] % r == 0,
                          x_type.shape[3] % r == 0)

    def forward(self, inputs):
        return space_to_depth(inputs[0], self.r),

    def backward(self, indexes, grad_outputs):
        return Depth2Space(self.r).apply(grad_outputs)
