"""Rearranging blocks of pixels into channels."""
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array._pixel_blocks import Space2Depth


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
