"""Average pooling over 1, 3 or N spatial axes, and the scaled window sum
behind it (also the gradient of unpooling).

``AveragePoolingND`` sums each window of the zero-padded input in one
reduction over the patches and scales the sums; its gradient
``AveragePoolingNDGrad`` spreads the scaled gradient back over the windows
(a col2im accumulation over the window offsets). Both are linear and each
is the other's gradient.
"""
import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.pooling import pooling_nd
from kusari.autograd.utils import conv


def _scaled(values, scale, dtype):
    """``values * scale`` as a new array of ``dtype``; ``scale`` is a
    float or a NumPy array broadcastable to ``values``."""
    xp = backend.get_array_module(values)
    if not isinstance(scale, float):
        scale = xp.asarray(scale, dtype=values.dtype)
    return (values * scale).astype(dtype, copy=False)


class AveragePoolingND(function_node.FunctionNode):
    """``y[o] = scale[o] * sum_k x_pad[o * stride + k]`` (zero padding)
    with output lengths ``outsize``."""

    def __init__(self, window, scale, outsize):
        self.window = window
        self.scale = scale
        self.outsize = tuple(outsize)

    def check_type_forward(self, in_types):
        pooling_nd.check_input(in_types, self.window.ndim)

    def forward(self, inputs):
        x, = inputs
        win = self.window
        self.dims = x.shape[2:]
        col = conv.im2col(x, win.ksize, win.stride, win.pad, 0,
                          outsize=self.outsize)
        sums = col.sum(axis=tuple(range(2, 2 + win.ndim)),
                       dtype=pooling_nd.accumulation_dtype(x.dtype))
        return _scaled(sums, self.scale, x.dtype),

    def backward(self, indexes, grad_outputs):
        return AveragePoolingNDGrad(self.window, self.scale,
                                    self.dims).apply(grad_outputs)


class AveragePoolingNDGrad(function_node.FunctionNode):
    """The adjoint of :class:`AveragePoolingND`: ``gx[i]`` sums
    ``scale[o] * gy[o]`` over the windows ``o`` holding ``i``; the result
    has spatial lengths ``dims``."""

    def __init__(self, window, scale, dims):
        self.window = window
        self.scale = scale
        self.dims = tuple(dims)

    def check_type_forward(self, in_types):
        pooling_nd.check_input(in_types, self.window.ndim)

    def forward(self, inputs):
        gy, = inputs
        win = self.window
        self.outsize = gy.shape[2:]
        scaled = _scaled(gy, self.scale, gy.dtype)
        xp = backend.get_array_module(gy)
        expanded = scaled.reshape(gy.shape[:2] + (1,) * win.ndim
                                  + gy.shape[2:])
        col = xp.broadcast_to(expanded,
                              gy.shape[:2] + win.ksize + gy.shape[2:])
        return conv.col2im(col, win.stride, win.pad, self.dims),

    def backward(self, indexes, grad_outputs):
        return AveragePoolingND(self.window, self.scale,
                                self.outsize).apply(grad_outputs)


def window_counts(win, dims, outsize):
    """The number of input (not padding) elements in each window, as a
    float64 array ``(1, 1) + outsize``: a product of one count per
    axis."""
    counts = numpy.ones((1, 1) + tuple(outsize))
    for axis, (d, o, k, s, p) in enumerate(
            zip(dims, outsize, win.ksize, win.stride, win.pad)):
        start = numpy.arange(o) * s - p
        count = numpy.minimum(start + k, d) - numpy.maximum(start, 0)
        shape = [1] * (win.ndim + 2)
        shape[axis + 2] = o
        # A window wholly in the padding averages nothing: its output is 0.
        counts = counts * numpy.maximum(count, 1).reshape(shape)
    return counts


def apply_average_pooling(func_name, ndim, x, ksize, stride, pad,
                          pad_value):
    """Check the options, then average-pool ``x``."""
    win = pooling_nd.window(func_name, x, ndim, ksize, stride, pad)
    dims = x.shape[2:]
    pooling_nd.expect_fits(func_name, win, dims)
    outsize = win.outsize(dims)
    if pad_value is None and any(win.pad):
        scale = 1 / window_counts(win, dims, outsize)
    elif pad_value is None or (pad_value == 0
                               and not isinstance(pad_value, bool)):
        scale = 1.0 / win.size
    else:
        raise ValueError(f'{func_name}: pad_value must be 0 or None; got '
                         f'{pad_value!r}')
    return AveragePoolingND(win, scale, outsize).apply((x,))[0]


def average_pooling_nd(x, ksize, stride=None, pad=0, pad_value=0):
    """N-dimensional spatial average pooling.

    ``y[n, c, o]`` is the mean of ``x_pad[n, c, o * stride + k]`` over the
    window offsets ``k`` of ``ksize``, where ``x_pad`` is x zero-padded by
    ``pad`` on each side.

    Args:
        x: Variable or array ``(n, c, d_1, ..., d_N)``, float.
        ksize: int or tuple of N ints: the window size.
        stride: int or tuple of N ints; None means ``ksize``.
        pad: int or tuple of N ints.
        pad_value: 0 (padding counts as zeros) or None (each mean is over
            the input elements of its window only; a window wholly in the
            padding, where ``pad >= ksize``, gives 0 and a zero gradient,
            where Chainer's 0 / 0 gives NaN).

    Returns:
        Variable ``(n, c, out_1, ..., out_N)``.
    """
    return apply_average_pooling('average_pooling_nd', None, x, ksize,
                                 stride, pad, pad_value)


def average_pooling_1d(x, ksize, stride=None, pad=0, pad_value=0):
    """1-dimensional spatial average pooling: :func:`average_pooling_nd`
    for x ``(n, c, l)``."""
    return apply_average_pooling('average_pooling_1d', 1, x, ksize, stride,
                                 pad, pad_value)


def average_pooling_3d(x, ksize, stride=None, pad=0, pad_value=0):
    """3-dimensional spatial average pooling: :func:`average_pooling_nd`
    for x ``(n, c, d, h, w)``."""
    return apply_average_pooling('average_pooling_3d', 3, x, ksize, stride,
                                 pad, pad_value)
