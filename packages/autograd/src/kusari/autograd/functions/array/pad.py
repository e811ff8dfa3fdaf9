"""Padding an array."""
import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array._remap import Remap
from kusari.autograd.functions.array.get_item import get_item
from kusari.autograd.utils import type_check

# Modes whose padding copies elements of the input: their gradient adds
# each copy's gradient back to its element.
_COPYING_MODES = ('edge', 'reflect', 'symmetric', 'wrap')


class Pad(function_node.FunctionNode):
    """``numpy.pad``; the gradient crops the padding off (constant mode)
    or adds the padded copies back to their elements."""

    def __init__(self, pad_width, mode, keywords):
        self.pad_width = pad_width
        self.mode = mode
        self.keywords = keywords

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        return _pad(x, self.pad_width, self.mode, self.keywords),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        if self.mode == 'constant':
            return get_item(gy, tuple(
                slice(before, before + side) for (before, _), side in
                zip(self.pad_width, self._in_shape))),
        xp = backend.get_array_module(gy.array)
        size = int(numpy.prod(self._in_shape, dtype=numpy.int64))
        target = xp.arange(size).reshape(self._in_shape)
        source = _pad(target, self.pad_width, self.mode, self.keywords)
        return Remap(source, target, size).apply((gy,))


def _pad(x, pad_width, mode, keywords):
    """``xp.pad``, but for CuPy's wrap mode, which repeats the wrong
    elements where a side pads more than the axis holds (CuPy 14.2)."""
    xp = backend.get_array_module(x)
    if mode != 'wrap' or xp is numpy:
        return xp.pad(x, pad_width, mode=mode, **keywords)
    return _wrap_by_indices(x, pad_width)


def _wrap_by_indices(x, pad_width):
    """The wrap padding of ``x``, gathered by indices modulo each axis's
    length."""
    xp = backend.get_array_module(x)
    return x[xp.ix_(*(xp.arange(-before, side + after) % side
                      for (before, after), side in zip(pad_width, x.shape)))]


def _normalize_pad_width(pad_width, ndim):
    array = numpy.asarray(pad_width)
    if ndim == 0:
        raise ValueError('pad: x must have at least one axis')
    if array.dtype.kind not in 'iu' or array.size == 0:
        raise TypeError(f'pad: pad_width must be an int or (nested) '
                        f'sequence of ints; got {pad_width!r}')
    if (array < 0).any():
        raise ValueError(f'pad: pad_width must not be negative; got '
                         f'{pad_width!r}')
    try:
        array = numpy.broadcast_to(array, (ndim, 2))
    except ValueError:
        raise ValueError(f'pad: pad_width {pad_width!r} does not fit an '
                         f'input of {ndim} axes (expected one (before, '
                         f'after) pair, or one per axis)') from None
    return tuple((int(b), int(a)) for b, a in array)


@type_check.checks_inputs
def pad(x, pad_width, mode, **keywords):
    """Pad ``x``, as ``numpy.pad``.

    Args:
        x: Variable or array.
        pad_width: an int, a ``(before, after)`` pair, or one pair per axis
            (non-negative ints).
        mode: ``'constant'`` (``constant_values``, default 0), or one of
            ``'edge'``, ``'reflect'``, ``'symmetric'``, ``'wrap'`` which
            pad with copies of the input's elements.
        **keywords: options of the mode, as ``numpy.pad`` takes them.

    Returns:
        Variable, larger by the padding along each axis.
    """
    if mode != 'constant' and mode not in _COPYING_MODES:
        raise ValueError(f'pad: mode must be one of '
                         f'{("constant",) + _COPYING_MODES}; got {mode!r}')
    if keywords.get('reflect_type', 'even') != 'even':
        raise ValueError("pad: reflect_type='odd' computes new values and "
                         "is not supported; use 'even'")
    pad_width = _normalize_pad_width(pad_width, x.ndim)
    y, = Pad(pad_width, mode, keywords).apply((x,))
    return y
