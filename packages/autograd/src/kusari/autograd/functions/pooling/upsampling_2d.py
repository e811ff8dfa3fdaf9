"""Upsampling with the indexes of a max pooling."""
import numpy

from kusari.array import backend
from kusari.autograd.functions.pooling import max_pooling_nd
from kusari.autograd.functions.pooling import pooling_nd
from kusari.autograd.functions.pooling import unpooling_nd


def _raw(x):
    return getattr(x, 'array', x)


def upsampling_2d(x, indexes, ksize, stride=None, pad=0, outsize=None,
                  cover_all=True):
    """Upsampling by pooling indexes: the inverse of max pooling.

    Each element of x goes to the position of its window given by
    ``indexes`` (as returned by ``max_pooling_2d(..., return_indices=True)``
    with the same options); the rest of the output is zero, and values add
    where windows overlap.

    Args:
        x: Variable or array ``(n, c, h, w)``, float.
        indexes: int array of x's shape: flat offsets within the windows.
        ksize: int or pair ``(kh, kw)``.
        stride: int or pair; None means ``ksize``.
        pad: int or pair.
        outsize: pair ``(out_h, out_w)``, or None for the size whose
            pooling has x's size.
        cover_all (bool): Whether the pooling used cover_all.

    Returns:
        Variable ``(n, c, out_h, out_w)``.
    """
    func_name = 'upsampling_2d'
    win = pooling_nd.window(func_name, x, 2, ksize, stride, pad, cover_all)
    outsize = unpooling_nd.unpooled_size(func_name, win, x.shape[2:],
                                         outsize)
    indexes = _raw(indexes)
    if not hasattr(indexes, 'dtype') or indexes.dtype.kind not in 'iu':
        raise TypeError(f'{func_name}: indexes must be an int array; got '
                        f'{getattr(indexes, "dtype", type(indexes))}')
    if indexes.shape != x.shape:
        raise ValueError(f'{func_name}: indexes must have the shape of x '
                         f'{x.shape}; got {indexes.shape}')
    xp = backend.get_array_module(indexes)
    if indexes.size and not bool(
            xp.logical_and(indexes >= 0, indexes < win.size).all()):
        raise ValueError(f'{func_name}: indexes must be in [0, {win.size}) '
                         f'(offsets within a {win.ksize} window)')
    return max_pooling_nd.max_pooling_grad(
        win, indexes.astype(numpy.intp, copy=False), outsize).apply((x,))[0]
