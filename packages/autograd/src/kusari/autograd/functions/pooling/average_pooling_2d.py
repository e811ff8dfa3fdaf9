"""Spatial (2-dimensional) average pooling."""
from kusari.autograd.functions.pooling import average_pooling_nd


def average_pooling_2d(x, ksize, stride=None, pad=0):
    """Spatial average pooling; padding counts as zeros.

    ``y[n, c, i, j]`` is the mean of the ``kh x kw`` window of the
    zero-padded x at ``(i * sy, j * sx)``.

    Args:
        x: Variable or array ``(n, c, h, w)``, float.
        ksize: int or pair ``(kh, kw)``: the window size.
        stride: int or pair ``(sy, sx)``; None means ``ksize``.
        pad: int or pair ``(ph, pw)``.

    Returns:
        Variable ``(n, c, out_h, out_w)``.
    """
    return average_pooling_nd.apply_average_pooling(
        'average_pooling_2d', 2, x, ksize, stride, pad, 0)
