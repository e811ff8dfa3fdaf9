"""N-dimensional im2col / col2im under Chainer's ``conv_nd`` names.

Thin entry points onto :mod:`kusari.autograd.utils.conv`, whose functions
already handle any number of spatial axes on NumPy and CuPy.
"""
from kusari.autograd.utils import conv


def _tuple(value, ndim):
    return tuple(value) if isinstance(value, (tuple, list)) \
        else (value,) * ndim


def im2col_nd_cpu(img, ksize, stride, pad, pval=0, cover_all=False,
                  dilate=1):
    """Patches ``(n, c, k_1, ..., k_N, out_1, ..., out_N)`` of an image
    ``(n, c, d_1, ..., d_N)``; ``dilate`` is an int or a tuple."""
    ndim = len(ksize)
    return conv.im2col(img, tuple(ksize), tuple(stride), tuple(pad), pval,
                       cover_all, _tuple(dilate, ndim))


def im2col_nd_gpu(img, ksize, stride, pad, cover_all=False, dilate=1):
    """CuPy version of :func:`im2col_nd_cpu`, zero padded."""
    return im2col_nd_cpu(img, ksize, stride, pad, 0, cover_all, dilate)


def col2im_nd_cpu(col, stride, pad, dims, dilate=1):
    """Image ``(n, c, *dims)`` summed from patches: the adjoint of
    :func:`im2col_nd_cpu`."""
    ndim = len(dims)
    return conv.col2im(col, tuple(stride), tuple(pad), tuple(dims),
                       _tuple(dilate, ndim))


def col2im_nd_gpu(col, stride, pad, dims, dilate=1):
    """CuPy version of :func:`col2im_nd_cpu` (the same code)."""
    return col2im_nd_cpu(col, stride, pad, dims, dilate)
