"""Extracting the patches a 2-D filter sees (and adding them back)."""
from kusari.autograd import function_node
from kusari.autograd.functions.array import _axes
from kusari.autograd.utils import conv
from kusari.autograd.utils import type_check


def pair(func_name, arg_name, value, minimum):
    """An int or a pair of ints as a pair, each at least ``minimum``."""
    values = _axes.check_ints(func_name, arg_name, value, minimum)
    if len(values) == 1:
        return values * 2
    if len(values) != 2:
        raise ValueError(f'{func_name}: {arg_name} must be an int or a '
                         f'pair of ints; got {value!r}')
    return values


class Im2Col(function_node.FunctionNode):
    """Patches of an image, flattened per position; the gradient adds the
    patches back (:class:`Col2Im`)."""

    def __init__(self, ksize, stride, pad, cover_all, dilate):
        self.ksize = ksize
        self.stride = stride
        self.pad = pad
        self.cover_all = cover_all
        self.dilate = dilate

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].ndim == 4)

    def forward(self, inputs):
        x, = inputs
        n, c, h, w = x.shape
        out_h, out_w = [
            conv.get_conv_outsize(size, k, s, p, self.cover_all, d)
            for size, k, s, p, d in zip((h, w), self.ksize, self.stride,
                                        self.pad, self.dilate)]
        if out_h <= 0 or out_w <= 0:
            raise ValueError(
                f'im2col: the dilated kernel does not fit an input of '
                f'height {h} and width {w} with this padding (output would '
                f'be {out_h} x {out_w})')
        self._in_size = h, w
        col = conv.im2col(x, self.ksize, self.stride, self.pad, 0,
                          self.cover_all, self.dilate, (out_h, out_w))
        kh, kw = self.ksize
        return col.reshape(n, c * kh * kw, out_h, out_w),

    def backward(self, indexes, grad_outputs):
        return Col2Im(self, self._in_size).apply(grad_outputs)


class Col2Im(function_node.FunctionNode):
    """Add flattened patches back into an image; the adjoint of
    :class:`Im2Col` (whose options it takes from ``im2col``)."""

    def __init__(self, im2col, in_size):
        self.im2col = im2col
        self.in_size = in_size

    def forward(self, inputs):
        gy, = inputs
        n, channels, out_h, out_w = gy.shape
        kh, kw = self.im2col.ksize
        col = gy.reshape(n, channels // (kh * kw), kh, kw, out_h, out_w)
        return conv.col2im(col, self.im2col.stride, self.im2col.pad,
                           self.in_size, self.im2col.dilate),

    def backward(self, indexes, grad_outputs):
        node = self.im2col
        return Im2Col(node.ksize, node.stride, node.pad, node.cover_all,
                      node.dilate).apply(grad_outputs)


def im2col(x, ksize, stride=1, pad=0, cover_all=False, dilate=1):
    """Extract the patches a 2-D filter sees at each position.

    ``y[n, (c * kh + i) * kw + j, oy, ox]`` is the input element under
    kernel offset ``(i, j)`` at output position ``(oy, ox)``: ``x[n, c,
    oy * sy - ph + i * dy, ox * sx - pw + j * dx]``, zero in the padding.

    Args:
        x: Variable or array of shape ``(n, c, h, w)``.
        ksize: kernel size, an int or a pair ``(kh, kw)``.
        stride: an int or a pair ``(sy, sx)``.
        pad: zero padding on each side, an int or a pair ``(ph, pw)``.
        cover_all: add output positions at the end so that every input
            element is in some patch.
        dilate: kernel dilation, an int or a pair ``(dy, dx)``.

    Returns:
        Variable of shape ``(n, c * kh * kw, out_h, out_w)``.
    """
    y, = Im2Col(pair('im2col', 'ksize', ksize, 1),
                pair('im2col', 'stride', stride, 1),
                pair('im2col', 'pad', pad, 0), bool(cover_all),
                pair('im2col', 'dilate', dilate, 1)).apply((x,))
    return y
