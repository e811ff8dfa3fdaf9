"""N-dimensional im2col / col2im under Chainer's ``conv_nd`` names.

Thin entry points onto :mod:`kusari.autograd.utils.conv`, whose functions
already handle any number of spatial axes on NumPy and CuPy. As in Chainer,
arguments of the wrong number of spatial axes raise ``AssertionError``.
"""
from kusari.autograd.utils import conv
from kusari.autograd.utils.conv import get_conv_outsize  # NOQA: F401
from kusari.autograd.utils.conv import get_deconv_outsize  # NOQA: F401


def as_tuple(x, n):
    """``x`` as a tuple of ``n`` values: a sequence of length ``n`` as it
    is, a scalar repeated."""
    if hasattr(x, '__getitem__'):
        _expect_ranks('as_tuple', n, x=x)
        return tuple(x)
    return (x,) * n


def _expect_ranks(caller, n, **sequences):
    """Every one of ``sequences`` has ``n`` values (one per spatial axis);
    AssertionError (Chainer's error) naming the one that has not."""
    for name, value in sequences.items():
        if len(value) != n:
            raise AssertionError(
                f'{caller}: {name} must have {n} values (one per spatial '
                f'axis), got {tuple(value)}')


def im2col_nd_cpu(img, ksize, stride, pad, pval=0, cover_all=False,
                  dilate=1):
    """Patches ``(n, c, k_1, ..., k_N, out_1, ..., out_N)`` of an image
    ``(n, c, d_1, ..., d_N)``; ``dilate`` is an int or a tuple."""
    ndim = img.ndim - 2
    _expect_ranks('im2col_nd', ndim, ksize=ksize, stride=stride, pad=pad)
    return conv.im2col(img, tuple(ksize), tuple(stride), tuple(pad), pval,
                       cover_all, as_tuple(dilate, ndim))


def im2col_nd(img, ksize, stride, pad, cover_all=False, dilate=1):
    """:func:`im2col_nd_cpu`, zero padded, on NumPy or CuPy arrays (one
    code serves both)."""
    return im2col_nd_cpu(img, ksize, stride, pad, 0, cover_all, dilate)


im2col_nd_gpu = im2col_nd


def col2im_nd_cpu(col, stride, pad, dims, dilate=1):
    """Image ``(n, c, *dims)`` summed from patches: the adjoint of
    :func:`im2col_nd_cpu`."""
    ndim = len(dims)
    _expect_ranks('col2im_nd', ndim, stride=stride, pad=pad)
    _expect_ranks('col2im_nd', 2 + 2 * ndim, **{'col.shape': col.shape})
    return conv.col2im(col, tuple(stride), tuple(pad), tuple(dims),
                       as_tuple(dilate, ndim))


# One code serves NumPy and CuPy arrays.
col2im_nd = col2im_nd_gpu = col2im_nd_cpu
