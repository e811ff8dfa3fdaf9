"""Unpooling: the inverse of pooling that copies each element over its
window, over 1, 3 or N spatial axes.

It is the adjoint of the window sum of average pooling (with scale 1), so
its gradient is that sum and it has gradients of every order.
"""
from kusari.autograd.functions.pooling import average_pooling_nd
from kusari.autograd.functions.pooling import pooling_nd
from kusari.autograd.utils import int_tuples
from kusari.autograd.utils import type_check


class UnpoolingND(average_pooling_nd.AveragePoolingNDGrad):
    """``y[i] = sum of x[o]`` over the windows ``o`` holding ``i``."""


def unpooled_size(func_name, win, dims, outsize):
    """The unpooled spatial lengths: ``outsize`` checked against ``dims``
    (pooling it must give them back, else InvalidType), or the default for
    ``dims`` (an axis may be empty where the padding eats the whole
    window, as in Chainer)."""
    if outsize is None:
        outsize = win.insize(dims)
        if any(o < 0 for o in outsize):
            raise ValueError(
                f'{func_name}: x of spatial shape {tuple(dims)} unpools to '
                f'the negative shape {outsize} (ksize {win.ksize}, stride '
                f'{win.stride}, pad {win.pad})')
        return outsize
    outsize = int_tuples.expand(func_name, 'outsize', outsize, win.ndim, 1)
    expected = win.outsize(outsize)
    if expected != tuple(dims):
        raise type_check.InvalidType(
            f'x.shape[2:] == {expected}', f'x.shape[2:] = {tuple(dims)}',
            f'{func_name}: outsize {outsize} pools to {expected}, not to '
            f'the spatial shape {tuple(dims)} of x (ksize {win.ksize}, '
            f'stride {win.stride}, pad {win.pad}, cover_all '
            f'{win.cover_all})')
    return outsize


def apply_unpooling(func_name, ndim, x, ksize, stride, pad, outsize,
                    cover_all):
    """Check the options, then unpool ``x``."""
    win = pooling_nd.window(func_name, x, ndim, ksize, stride, pad,
                            cover_all)
    outsize = unpooled_size(func_name, win, x.shape[2:], outsize)
    return UnpoolingND(win, 1.0, outsize).apply((x,))[0]


def unpooling_nd(x, ksize, stride=None, pad=0, outsize=None,
                 cover_all=True):
    """N-dimensional unpooling: the inverse of pooling.

    Every element of x is copied to each position of its window in the
    output (values add where windows overlap), and the padding is cut off.

    Args:
        x: Variable or array ``(n, c, d_1, ..., d_N)``, float.
        ksize: int or tuple of N ints: the window size.
        stride: int or tuple of N ints; None means ``ksize``.
        pad: int or tuple of N ints.
        outsize: tuple of N ints, the output's spatial shape; None for
            the shape whose pooling has x's shape (see
            :func:`chainer.utils.conv.get_deconv_outsize`).
        cover_all (bool): Whether the pooling it inverts used cover_all.

    Returns:
        Variable ``(n, c) + outsize``.
    """
    return apply_unpooling('unpooling_nd', None, x, ksize, stride, pad,
                           outsize, cover_all)


def unpooling_1d(x, ksize, stride=None, pad=0, outsize=None,
                 cover_all=True):
    """1-dimensional unpooling: :func:`unpooling_nd` for x ``(n, c,
    l)``."""
    return apply_unpooling('unpooling_1d', 1, x, ksize, stride, pad,
                           outsize, cover_all)


def unpooling_3d(x, ksize, stride=None, pad=0, outsize=None,
                 cover_all=True):
    """3-dimensional unpooling: :func:`unpooling_nd` for x ``(n, c, d, h,
    w)``."""
    return apply_unpooling('unpooling_3d', 3, x, ksize, stride, pad,
                           outsize, cover_all)
