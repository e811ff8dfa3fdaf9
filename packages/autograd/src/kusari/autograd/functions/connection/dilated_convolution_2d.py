"""Dilated (atrous) two-dimensional convolution."""
from kusari.autograd.functions.connection.convolution_2d import \
    convolution_2d


def dilated_convolution_2d(x, W, b=None, stride=1, pad=0, dilate=1,
                           cover_all=False):
    """Two-dimensional convolution whose filter taps are ``dilate`` pixels
    apart: :func:`convolution_2d` with ``dilate``.

    Args:
        x: Variable or array ``(n, c, h, w)``, float.
        W: Filter ``(out, c, kh, kw)``.
        b: Bias ``(out,)`` or None.
        stride: int or pair ``(sy, sx)``.
        pad: int or pair ``(ph, pw)``.
        dilate: int or pair ``(dy, dx)``.
        cover_all (bool): See :func:`convolution_2d`.

    Returns:
        Variable ``(n, out, out_h, out_w)``.
    """
    return convolution_2d(x, W, b, stride, pad, cover_all, dilate=dilate)
