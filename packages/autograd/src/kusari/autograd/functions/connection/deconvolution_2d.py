"""Two-dimensional deconvolution (transposed convolution)."""
from kusari.autograd.functions.connection import deconvolution_nd


class Deconvolution2DFunction(deconvolution_nd.DeconvolutionND):
    """:class:`DeconvolutionND` over two spatial axes (named as Chainer's,
    for error messages and graph drawings)."""


def deconvolution_2d(x, W, b=None, stride=1, pad=0, outsize=None, *,
                     dilate=1, groups=1):
    """Two-dimensional deconvolution (transposed convolution) of images.

    The transpose of :func:`convolution_2d` with the same stride, pad and
    dilation: each input pixel adds ``W``-weighted copies to the output
    window a convolution would read it from, plus ``b``. The output height
    is ``sy (h - 1) + (kh - 1) dy + 1 - 2 ph`` (width alike) unless
    ``outsize`` gives both.

    Args:
        x: Variable or array ``(n, c, h, w)``, float.
        W: Filter ``(c, out / groups, kh, kw)``, float.
        b: Bias ``(out,)`` or None.
        stride: int or pair ``(sy, sx)``.
        pad: int or pair ``(ph, pw)``.
        outsize: None or pair ``(out_h, out_w)``.
        dilate: int or pair ``(dy, dx)``.
        groups (int): Number of channel groups.

    Returns:
        Variable ``(n, out, out_h, out_w)`` of x's dtype.
    """
    return deconvolution_nd.apply_deconvolution(
        Deconvolution2DFunction, 'deconvolution_2d', x, W, b, 2, stride,
        pad, outsize, dilate, groups)
