"""Max pooling over 1, 2, 3 or N spatial axes.

Forward reduces the windows of the ``-inf``-padded input (strided views,
one per window offset) to their maximum; the position of each maximum
(its flat offset within the window) is kept. The gradient scatters ``gy``
to those positions in one indexed operation; its own gradient gathers
from them, so max pooling has gradients of every order.
"""
import itertools

import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.pooling import _scatter_gather
from kusari.autograd.functions.pooling import pooling_nd
from kusari.autograd.graph_optimizations.static_graph import static_code
from kusari.autograd.utils import conv

# Up to this window size (and the uint8 count of offsets) the argmax is
# found by comparing each window offset's slice with the maximum: NumPy's
# argmax over a short axis costs a call per window, far more than a few
# whole-array comparisons.
_COMPARE_UP_TO = 32


class MaxPoolingND(function_node.FunctionNode):
    """``y = max`` of each window of x padded with ``-inf``; the argmax
    offsets are kept in ``indexes``."""

    indexes = None

    def __init__(self, window):
        self.window = window

    def check_type_forward(self, in_types):
        pooling_nd.check_input(in_types, self.window.ndim)

    def _patches(self, x):
        """The windows of x padded with ``-inf``: a strided view ``(n, c,
        k_1, ..., k_N, out_1, ..., out_N)``."""
        win = self.window
        self.dims = x.shape[2:]
        return conv.patch_view(x, win.ksize, win.stride, win.pad, -numpy.inf,
                               win.cover_all)

    def _reduced(self, x):
        """y and the argmax offsets, from a copy of the windows with one
        window axis."""
        view = self._patches(x)
        xp = backend.get_array_module(view)
        col = xp.ascontiguousarray(view).reshape(
            x.shape[:2] + (self.window.size,) + view.shape[-self.window.ndim:])
        self.indexes = col.argmax(axis=2)
        return col.max(axis=2),

    def forward_cpu(self, inputs):
        if self.window.size > _COMPARE_UP_TO:
            return self._reduced(inputs[0])
        # Each window offset's values as a strided view of x (no copy of
        # the patches): the maximum over them, then the first offset
        # holding it, as argmax would give: the number of offsets before
        # the maximum is first seen.
        view = self._patches(inputs[0])
        whole = (slice(None),) * 2
        parts = [view[whole + offset] for offset in itertools.product(
            *[range(k) for k in self.window.ksize])]
        y = parts[0].copy()
        for part in parts[1:]:
            numpy.maximum(y, part, out=y)
        if numpy.isnan(y).any():
            # NaN equals nothing, so the comparisons below cannot find it:
            # argmax finds the first NaN of each window, as Chainer's.
            return self._reduced(inputs[0])
        unseen = parts[0] != y
        count = unseen.astype(numpy.uint8)
        for part in parts[1:-1]:
            unseen &= part != y
            count += unseen
        self.indexes = count.astype(numpy.intp)
        return y,

    def forward_gpu(self, inputs):
        return self._reduced(inputs[0])

    def _grad(self):
        """The node scattering gy to the maxima forward found."""
        return max_pooling_grad(self.window, self.indexes, self.dims)

    def backward(self, indexes, grad_outputs):
        return self._grad().apply(grad_outputs)

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        return self._grad().forward(grad_outputs)


def max_pooling_grad(win, offsets, dims):
    """The node scattering a pooled gradient to the window elements at
    ``offsets``, giving an array of spatial lengths ``dims``."""
    outsize = offsets.shape[2:]
    padded = win.padded(dims, outsize)
    buffer_shape = offsets.shape[:2] + padded
    inner = None if padded == tuple(dims) else win.inner(dims)
    unique = all(s >= k for s, k in zip(win.stride, win.ksize))
    return _scatter_gather.Scatter(
        win.flat_index(offsets, padded), None, buffer_shape, inner, unique)


def _max_pooling(func_name, ndim, x, ksize, stride, pad, cover_all,
                 return_indices):
    win = pooling_nd.window(func_name, x, ndim, ksize, stride, pad,
                            cover_all)
    pooling_nd.expect_fits(func_name, win, x.shape[2:])
    func = MaxPoolingND(win)
    y, = func.apply((x,))
    if return_indices:
        return y, _indexes_of(func)
    return y


@static_code
def _indexes_of(node):
    """The argmax that max pooling ``node`` found: in a static chain, that
    of the node each call applies (for an ``upsampling_2d`` of the same
    chain), not the recorded one."""
    return node.indexes


def max_pooling_nd(x, ksize, stride=None, pad=0, cover_all=True,
                   return_indices=False):
    """N-dimensional spatial max pooling.

    ``y[n, c, o] = max_k x_pad[n, c, o * stride + k]`` over the window
    offsets ``k`` of ``ksize``, where ``x_pad`` is x padded with ``-inf``
    by ``pad`` on each side.

    Args:
        x: Variable or array ``(n, c, d_1, ..., d_N)``, float.
        ksize: int or tuple of N ints: the window size.
        stride: int or tuple of N ints; None means ``ksize``.
        pad: int or tuple of N ints.
        cover_all (bool): Add output positions until every input element
            is in some window (the last windows may reach past the
            padding).
        return_indices (bool): Also return the argmax array: the flat
            offset (C order over the window) of each maximum within its
            window, of y's shape.

    Returns:
        Variable ``(n, c, out_1, ..., out_N)``, or ``(y, indexes)`` with
        ``return_indices``.
    """
    return _max_pooling('max_pooling_nd', None, x, ksize, stride, pad,
                        cover_all, return_indices)


def max_pooling_1d(x, ksize, stride=None, pad=0, cover_all=True,
                   return_indices=False):
    """1-dimensional spatial max pooling: :func:`max_pooling_nd` for x
    ``(n, c, l)``."""
    return _max_pooling('max_pooling_1d', 1, x, ksize, stride, pad,
                        cover_all, return_indices)


def max_pooling_2d(x, ksize, stride=None, pad=0, cover_all=True,
                   return_indices=False):
    """Spatial max pooling: :func:`max_pooling_nd` for x ``(n, c, h,
    w)``."""
    return _max_pooling('max_pooling_2d', 2, x, ksize, stride, pad,
                        cover_all, return_indices)


def max_pooling_3d(x, ksize, stride=None, pad=0, cover_all=True,
                   return_indices=False):
    """3-dimensional spatial max pooling: :func:`max_pooling_nd` for x
    ``(n, c, d, h, w)``."""
    return _max_pooling('max_pooling_3d', 3, x, ksize, stride, pad,
                        cover_all, return_indices)
