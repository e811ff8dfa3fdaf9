"""Spatial (2-dimensional) unpooling."""
from kusari.autograd.functions.pooling import unpooling_nd


def unpooling_2d(x, ksize, stride=None, pad=0, outsize=None,
                 cover_all=True):
    """Inverse of 2-dimensional pooling: each element of x is copied over
    its ``kh x kw`` window of the output.

    Args:
        x: Variable or array ``(n, c, h, w)``, float.
        ksize: int or pair ``(kh, kw)``.
        stride: int or pair; None means ``ksize``.
        pad: int or pair.
        outsize: pair ``(out_h, out_w)``, or None for the size whose
            pooling has x's size.
        cover_all (bool): Whether the pooling it inverts used cover_all.

    Returns:
        Variable ``(n, c, out_h, out_w)``.
    """
    return unpooling_nd.apply_unpooling('unpooling_2d', 2, x, ksize, stride,
                                        pad, outsize, cover_all)
