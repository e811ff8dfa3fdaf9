"""Sliding-window geometry shared by the pooling functions.

A :class:`Window` holds ``ksize``, ``stride`` and ``pad`` (one int per
spatial axis) and ``cover_all``. It computes output lengths, the shape of
the padded buffer its windows read, and the flat position in that buffer
of a window element (for the scatter of max pooling's gradient). Patches
themselves come from :mod:`kusari.autograd.utils.conv`.
"""
import numpy

from kusari.array import backend
from kusari.autograd.utils import conv
from kusari.autograd.utils import int_tuples
from kusari.autograd.utils import type_check


class Window:
    """The windows of one pooling call (ksize, stride, pad: int tuples)."""

    def __init__(self, ksize, stride, pad, cover_all):
        self.ksize = ksize
        self.stride = stride
        self.pad = pad
        self.cover_all = cover_all

    @property
    def ndim(self):
        return len(self.ksize)

    @property
    def size(self):
        """Number of elements of one window."""
        return int(numpy.prod(self.ksize))

    def outsize(self, dims):
        """Pooled lengths of an input with spatial lengths ``dims``."""
        return tuple(
            conv.get_conv_outsize(d, k, s, p, self.cover_all)
            for d, k, s, p in zip(dims, self.ksize, self.stride, self.pad))

    def insize(self, dims):
        """Unpooled lengths whose pooling has lengths ``dims``."""
        return tuple(
            conv.get_deconv_outsize(d, k, s, p, self.cover_all)
            for d, k, s, p in zip(dims, self.ksize, self.stride, self.pad))

    def padded(self, dims, outsize):
        """Spatial lengths of the buffer the windows read: the padded
        input, longer where the last windows reach past it."""
        return tuple(
            max(d + 2 * p, (o - 1) * s + k)
            for d, o, k, s, p in zip(dims, outsize, self.ksize, self.stride,
                                     self.pad))

    def inner(self, dims):
        """Index of the unpadded input inside the padded buffer."""
        return (Ellipsis,) + tuple(
            slice(p, p + d) for d, p in zip(dims, self.pad))

    def flat_index(self, offsets, padded):
        """Flat positions in a buffer ``(n, c) + padded`` of the window
        elements at ``offsets`` (flat offsets within each window, an int
        array ``(n, c) + outsize``)."""
        xp = backend.get_array_module(offsets)
        n, c = offsets.shape[:2]
        outsize = offsets.shape[2:]
        # Element strides of the buffer, then the flat position of every
        # window's first element and of every offset within a window.
        strides = [1]
        for length in reversed(padded[1:]):
            strides.insert(0, strides[0] * length)
        start = xp.arange(n * c, dtype=numpy.intp).reshape(
            (n, c) + (1,) * self.ndim) * int(numpy.prod(padded))
        within = xp.zeros(self.ksize, dtype=numpy.intp)
        for axis, (o, k, s, st) in enumerate(
                zip(outsize, self.ksize, self.stride, strides)):
            shape = [1] * self.ndim
            shape[axis] = -1
            start = start + (xp.arange(o, dtype=numpy.intp)
                             * (s * st)).reshape(shape)
            within += (xp.arange(k, dtype=numpy.intp) * st).reshape(shape)
        return start + within.ravel()[offsets]


def window(func_name, x, ndim, ksize, stride, pad, cover_all=False):
    """Check ``x`` and the options of a pooling function; their Window.

    Args:
        func_name: the public name, for messages.
        x: the input (Variable or array) ``(n, c, d_1, ..., d_N)``.
        ndim: N, or None for any number (at least one) of spatial axes.
        ksize, stride, pad: int or sequence of N ints; a None stride is
            ``ksize``.
        cover_all (bool): whether the last windows may reach past the
            padding to cover every element.
    """
    x_ndim = getattr(x, 'ndim', None)
    if x_ndim is None:
        raise type_check.not_an_array(func_name, 'x', x)
    if ndim is None:
        if x_ndim < 3:
            raise ValueError(
                f'{func_name}: x must have a batch, a channel and at least '
                f'one spatial axis; got shape {x.shape}')
        ndim = x_ndim - 2
    elif x_ndim != ndim + 2:
        raise ValueError(
            f'{func_name}: x must have {ndim} spatial axes after the batch '
            f'and channel axes (ndim {ndim + 2}); got shape {x.shape}')
    ksize = int_tuples.expand(func_name, 'ksize', ksize, ndim, 1)
    stride = ksize if stride is None else int_tuples.expand(
        func_name, 'stride', stride, ndim, 1)
    pad = int_tuples.expand(func_name, 'pad', pad, ndim, 0)
    return Window(ksize, stride, pad, bool(cover_all))


def expect_fits(func_name, win, dims):
    """Raise unless every window fits in the padded input (at least one
    output element along every axis)."""
    extra = [s - 1 if win.cover_all else 0 for s in win.stride]
    if any(d + 2 * p + e < k for d, p, e, k in
           zip(dims, win.pad, extra, win.ksize)):
        raise ValueError(
            f'{func_name}: ksize {win.ksize} is larger than the padded '
            f'input: spatial shape {tuple(dims)} with pad {win.pad}')


def check_input(in_types, ndim):
    """Type check of a pooling input: float, with ``ndim`` spatial
    axes."""
    type_check.argname(in_types, ('x',))
    x_type, = in_types
    type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == ndim + 2)


def accumulation_dtype(dtype):
    """The dtype sums are taken in: float32 for float16 inputs."""
    return numpy.float32 if dtype == numpy.float16 else dtype
