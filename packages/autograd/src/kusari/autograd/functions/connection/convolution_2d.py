"""Two-dimensional convolution."""
from kusari.autograd.functions.connection import convolution_nd


class Convolution2DFunction(convolution_nd.ConvolutionND):
    """:class:`ConvolutionND` over two spatial axes (named as Chainer's,
    for error messages and graph drawings)."""


def convolution_2d(x, W, b=None, stride=1, pad=0, cover_all=False, *,
                   dilate=1, groups=1):
    """Two-dimensional convolution of images.

    ``y[n, o, i, j] = sum_{c, p, q} W[o, c, p, q]
    x_pad[n, c, i sy + p dy, j sx + q dx] + b[o]``, where ``x_pad`` is x
    zero-padded by ``pad``. The output height is
    ``(h + 2 ph - (kh - 1) dy - 1) // sy + 1`` (width alike), or with
    ``cover_all`` large enough that every input pixel is read. With
    ``groups`` = g, input and output channels split into g groups
    convolved separately.

    Args:
        x: Variable or array ``(n, c, h, w)``, float.
        W: Filter ``(out, c / groups, kh, kw)``, float.
        b: Bias ``(out,)`` or None.
        stride: int or pair ``(sy, sx)``.
        pad: int or pair ``(ph, pw)``.
        cover_all (bool): See above.
        dilate: int or pair ``(dy, dx)``: spacing of the filter taps.
        groups (int): Number of channel groups.

    Returns:
        Variable ``(n, out, out_h, out_w)`` of x's dtype.
    """
    return convolution_nd.apply_convolution(
        Convolution2DFunction, 'convolution_2d', x, W, b, 2, stride, pad,
        cover_all, dilate, groups)
