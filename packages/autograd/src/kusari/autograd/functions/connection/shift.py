"""Shift: a zero-parameter spatial mixing of channels."""
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.utils import int_tuples
from kusari.autograd.utils import type_check


def _group_offsets(kh, kw):
    """Offset ``(ky, kx)`` of each of the ``kh * kw`` channel groups. The
    groups walk the kernel in row order, except that the middle group and
    the last swap places, so the last group (which also takes the channels
    left over) is the unshifted centre."""
    n_groups = kh * kw
    middle = (n_groups - 1) // 2
    offsets = []
    for group in range(n_groups):
        index = group
        if group == middle:
            index = n_groups - 1
        elif group == n_groups - 1:
            index = middle
        offsets.append((index // kw - kh // 2, index % kw - kw // 2))
    return offsets


def _window(offset, dilate, size):
    """Destination and source slices of a shift by ``offset * dilate``
    along an axis of length ``size`` (empty when it shifts out)."""
    shift = offset * dilate
    if shift >= 0:
        return slice(min(shift, size), size), slice(0, max(size - shift, 0))
    return slice(0, max(size + shift, 0)), slice(min(-shift, size), size)


class Shift(function_node.FunctionNode):
    """Channel group g moved by its kernel offset times ``dilate``; the
    gradient is the shift by ``-dilate``."""

    def __init__(self, ksize, dilate):
        self.kh, self.kw = ksize
        self.dy, self.dx = dilate

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(
            x_type.dtype.kind == 'f', x_type.ndim == 4,
            x_type.shape[1] >= self.kh * self.kw)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        _, c, h, w = x.shape
        y = xp.zeros_like(x)
        offsets = _group_offsets(self.kh, self.kw)
        group_size = c // len(offsets)
        for group, (ky, kx) in enumerate(offsets):
            last = group == len(offsets) - 1
            channels = slice(group * group_size,
                             None if last else (group + 1) * group_size)
            dst_y, src_y = _window(ky, self.dy, h)
            dst_x, src_x = _window(kx, self.dx, w)
            y[:, channels, dst_y, dst_x] = x[:, channels, src_y, src_x]
        return y,

    def backward(self, indexes, grad_outputs):
        return Shift((self.kh, self.kw), (-self.dy, -self.dx)).apply(
            grad_outputs)


def shift(x, ksize=3, dilate=1):
    """Shift operation (Wu et al., 2017): the channels split into
    ``kh * kw`` groups, each moved (zero-filled) by one offset of a
    ``kh x kw`` kernel scaled by ``dilate``.

    Args:
        x: Variable or array ``(n, c, h, w)`` with ``c >= kh * kw``.
        ksize: int or pair ``(kh, kw)``, odd.
        dilate: int or pair ``(dy, dx)``, non-zero.

    Returns:
        Variable of x's shape.
    """
    ksize = int_tuples.expand('shift', 'ksize', ksize, 2, 1)
    dilate = int_tuples.expand('shift', 'dilate', dilate, 2, None)
    if any(k % 2 == 0 for k in ksize) or 0 in dilate:
        raise ValueError(f'shift: ksize must be odd and dilate non-zero; '
                         f'got ksize={ksize}, dilate={dilate}')
    y, = Shift(ksize, dilate).apply((x,))
    return y
