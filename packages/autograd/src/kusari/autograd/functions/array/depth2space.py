"""Rearranging channels into blocks of pixels (sub-pixel convolution)."""
from kusari.autograd import function_node
from kusari.autograd.functions.array import _axes
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
        from kusari.autograd.functions.array.space2depth import Space2Depth
        return Space2Depth(self.r).apply(grad_outputs)


def depth2space(X, r):
    """Rearrange channels into pixel blocks: ``(n, r * r * c, h, w)``
    to ``(n, c, h * r, w * r)``, for sub-pixel convolution.

    Args:
        X: Variable or array of 4 axes.
        r: the upscaling factor, a positive int.

    Returns:
        Variable of shape ``(n, c, h * r, w * r)``.
    """
    r = _axes.check_int('depth2space', 'r', r, 1)
    y, = Depth2Space(r).apply((X,))
    return y
