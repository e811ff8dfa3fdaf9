"""Rearranging blocks of pixels into channels."""
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array import depth2space
from kusari.autograd.functions.array.depth2space import Depth2Space
from kusari.autograd.functions.array.depth2space import space_to_depth
from kusari.autograd.utils import type_check


class Space2Depth(depth2space.BlockMove):
    """Move ``r x r`` pixel blocks into channels; the gradient moves them
    back (:class:`Depth2Space`)."""

    def expect_divisible(self, x_type, r):
        type_check.expect(x_type.shape[2] % r == 0,
                          x_type.shape[3] % r == 0)

    def forward(self, inputs):
        return space_to_depth(inputs[0], self.r),

    def backward(self, indexes, grad_outputs):
        return Depth2Space(self.r).apply(grad_outputs)


def space2depth(X, r):
    """Rearrange pixel blocks into channels: ``(n, c, h * r, w * r)`` to
    ``(n, r * r * c, h, w)``; the inverse of :func:`depth2space`.

    Args:
        X: Variable or array of 4 axes, height and width divisible by r.
        r: the downscaling factor, a positive int.

    Returns:
        Variable of shape ``(n, r * r * c, h, w)``.
    """
    r = _axes.check_int('space2depth', 'r', r, 1)
    y, = Space2Depth(r).apply((X,))
    return y
