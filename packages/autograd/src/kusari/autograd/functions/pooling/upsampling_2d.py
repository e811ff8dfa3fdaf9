"""Upsampling with the indexes of a max pooling."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.pooling import max_pooling_nd
from kusari.autograd.functions.pooling import pooling_nd
from kusari.autograd.functions.pooling import unpooling_nd
from kusari.autograd.utils import type_check


class Upsampling2D(function_node.FunctionNode):
    """Max pooling's gradient at the window offsets ``indexes``: x added
    at those positions of zeros of spatial lengths ``outsize``. The
    offsets are an input, so a static graph's replay reads them anew."""

    def __init__(self, window, outsize):
        self.window = window
        self.outsize = outsize

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'indexes'))
        x_type, indexes_type = in_types
        type_check.expect(x_type.dtype.kind == 'f',
                          type_check.is_in(indexes_type.dtype.kind, 'iu'),
                          x_type.shape == indexes_type.shape)

    def forward(self, inputs):
        x, indexes = inputs
        self._scatter = max_pooling_nd.max_pooling_grad(
            self.window, indexes, self.outsize)
        return self._scatter.forward((x,))

    def backward(self, indexes, grad_outputs):
        gx, = self._scatter.backward((0,), grad_outputs)
        return gx, None


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
    return Upsampling2D(win, outsize).apply((x, indexes))[0]
