"""Resizing images by interpolation."""
import numpy

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd.functions.array import _axes
from kusari.autograd.utils import type_check

_MODES = ('bilinear', 'nearest')


def interpolation_matrix(in_size, out_size, mode, align_corners):
    """The ``(out_size, in_size)`` float64 matrix resizing one axis.

    Bilinear mode samples at ``d * (in - 1) / (out - 1)`` with
    ``align_corners`` (the corner pixels align), else at ``(d + 0.5) *
    in / out - 0.5`` clipped to the image; nearest mode takes pixel
    ``floor(d * in / out)``.
    """
    matrix = numpy.zeros((out_size, in_size))
    rows = numpy.arange(out_size)
    if mode == 'nearest':
        cols = rows * in_size // out_size  # below in_size: rows < out_size
        matrix[rows, cols] = 1
        return matrix
    if align_corners:
        scale = (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
        src = rows * scale
    else:
        src = (rows + 0.5) * (in_size / out_size) - 0.5
    src = numpy.clip(src, 0, in_size - 1)
    low = numpy.floor(src).astype(numpy.intp)
    high = numpy.minimum(low + 1, in_size - 1)
    weight = src - low
    numpy.add.at(matrix, (rows, low), 1 - weight)
    numpy.add.at(matrix, (rows, high), weight)
    return matrix


class SeparableLinearMap(function_node.FunctionNode):
    """``y = A @ x @ B.T`` over the last two axes of ``x``: a linear map
    of images acting on rows and columns separately. The gradient is the
    same map with the transposed matrices."""

    def __init__(self, rows, cols):
        self.rows = rows
        self.cols = cols

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        rows = xp.asarray(self.rows, dtype=x.dtype)
        cols = xp.asarray(self.cols.T, dtype=x.dtype)
        return xp.matmul(xp.matmul(rows, x), cols),

    def backward(self, indexes, grad_outputs):
        return SeparableLinearMap(self.rows.T,
                                  self.cols.T).apply(grad_outputs)


class ResizeImages(SeparableLinearMap):
    """Resize the height and width of ``(n, c, h, w)`` images."""

    def __init__(self, output_shape, mode, align_corners):
        self.output_shape = output_shape
        self.mode = mode
        self.align_corners = align_corners

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)

    def forward(self, inputs):
        _, _, h, w = inputs[0].shape
        out_h, out_w = self.output_shape
        self.rows = interpolation_matrix(h, out_h, self.mode,
                                         self.align_corners)
        self.cols = interpolation_matrix(w, out_w, self.mode,
                                         self.align_corners)
        return super().forward(inputs)


def resize_images(x, output_shape, *, mode='bilinear', align_corners=True):
    """Resize images to ``output_shape`` by interpolation.

    Args:
        x: Variable or array of shape ``(n, c, h, w)``, float.
        output_shape: ``(out_h, out_w)``, positive ints.
        mode: ``'bilinear'`` or ``'nearest'`` (pixel ``floor(d * in /
            out)``).
        align_corners: in bilinear mode, whether the corner pixels of
            input and output align (sample points ``d * (in - 1) / (out -
            1)``) or the pixel centers scale (``(d + 0.5) * in / out -
            0.5``).

    Returns:
        Variable of shape ``(n, c, out_h, out_w)``.
    """
    output_shape = _axes.check_ints('resize_images', 'output_shape',
                                    output_shape, 1)
    if len(output_shape) != 2:
        raise ValueError(f'resize_images: output_shape must be a pair '
                         f'(out_h, out_w); got {output_shape}')
    if mode not in _MODES:
        raise ValueError(f'resize_images: mode must be one of {_MODES}; '
                         f'got {mode!r}')
    y, = ResizeImages(output_shape, mode,
                      bool(align_corners)).apply((x,))
    return y
