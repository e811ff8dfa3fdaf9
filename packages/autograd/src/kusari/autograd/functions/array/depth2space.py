"""Rearranging channels into blocks of pixels (sub-pixel convolution)."""
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array._pixel_blocks import Depth2Space


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
