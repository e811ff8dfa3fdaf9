"""Converters of the poolings."""
import numpy
import onnx

from kusari.onnx.functions import _ops
from kusari.onnx.functions._registry import register


@register('MaxPoolingND')
def convert_max_pooling(params):
    win = params.func.window
    dims = params.input_shape()[2:]
    return _ops.one_node(
        'MaxPool', kernel_shape=list(win.ksize), strides=list(win.stride),
        pads=_ops.window_pads(dims, win.outsize(dims), win.ksize,
                              win.stride, win.pad))(params)


@register('AveragePoolingND')
def convert_average_pooling(params):
    """Padding counts as zeros for a scalar scale; a per-window scale
    averages over the input elements only."""
    func = params.func
    win = func.window
    dims = params.input_shape()[2:]
    return _ops.one_node(
        'AveragePool', kernel_shape=list(win.ksize),
        strides=list(win.stride),
        pads=_ops.window_pads(dims, func.outsize, win.ksize, win.stride,
                              win.pad),
        count_include_pad=int(isinstance(func.scale, float)))(params)


@register('UnpoolingND')
def convert_unpooling(params):
    """Each element copied over its window (summed where windows
    overlap): a transposed convolution of each channel with ones."""
    func = params.func
    win = func.window
    shape = params.input_shape()
    dims = shape[2:]
    full = [(d - 1) * s + k for d, s, k in zip(dims, win.stride, win.ksize)]
    ends = [f - p - o for f, p, o in zip(full, win.pad, func.dims)]
    gb = params.graph_builder()
    kernel = gb.const(numpy.ones((shape[1], 1) + tuple(win.ksize)),
                      params.input_dtype())
    gb.op_output_named(
        'ConvTranspose', [params.input_names[0], kernel],
        params.output_names, kernel_shape=list(win.ksize),
        strides=list(win.stride),
        pads=list(win.pad) + [max(e, 0) for e in ends],
        output_padding=[max(-e, 0) for e in ends], group=shape[1])
    return gb.nodes()


@register('ROIPooling2D')
def convert_roi_pooling_2d(params):
    """``roi_pooling_2d``: its node holds ``outh``, ``outw`` and
    ``spatial_scale``, and takes the regions as its second input.

    ONNX's MaxRoiPool before opset 22; from 22 on (onnxruntime runs no
    MaxRoiPool of that version) the same pooling made of elementwise ops
    and reductions: each region's bins as masks over the rows and the
    columns, the maximum over the masked columns, then over the masked
    rows, and 0 for an empty bin.
    """
    func = params.func
    if not _ops.since(params, 22):
        return _ops.one_node(
            'MaxRoiPool', pooled_shape=[func.outh, func.outw],
            spatial_scale=float(func.spatial_scale))(params)
    x, rois = params.input_names
    _, _, height, width = params.input_shape(0)
    dtype = params.input_dtype(0)
    gb = params.graph_builder()
    regions = gb.op('Cast', [rois], to=onnx.TensorProto.DOUBLE)
    image = gb.op('Cast', [_column(gb, regions, 0)], to=onnx.TensorProto.INT64)
    x = gb.op('Gather', [x, _ops.squeeze(gb, image, [1])], axis=0)
    rows, empty_rows = _bin_masks(gb, regions, 2, func.outh, height,
                                  func.spatial_scale)
    cols, empty_cols = _bin_masks(gb, regions, 1, func.outw, width,
                                  func.spatial_scale)
    lowest = gb.const(-numpy.inf, dtype)
    # (R, C, H, 1, W) over the masks (R, 1, 1, outw, W): (R, C, H, outw)
    x = _ops.reduce(gb, 'ReduceMax', gb.op('Where', [
        _ops.unsqueeze(gb, cols, [1, 2]), _ops.unsqueeze(gb, x, [3]),
        lowest]), [4], False)
    # (R, C, 1, H, outw) over the masks (R, 1, outh, H, 1)
    x = _ops.reduce(gb, 'ReduceMax', gb.op('Where', [
        _ops.unsqueeze(gb, rows, [1, 4]), _ops.unsqueeze(gb, x, [2]),
        lowest]), [3], False)
    empty = gb.op('Or', [_ops.unsqueeze(gb, empty_rows, [2]),
                         _ops.unsqueeze(gb, empty_cols, [1])])
    gb.op_output_named('Where', [_ops.unsqueeze(gb, empty, [1]),
                                 gb.const(0, dtype), x], params.output_names)
    return gb.nodes()


def _column(gb, regions, index):
    """Column ``index`` of the regions, ``(R, 1)``."""
    return gb.op('Gather', [regions, gb.const([index], numpy.int64)],
                 axis=1)


def _bin_masks(gb, regions, first, bins, size, scale):
    """Along one axis (the region's bounds in the columns ``first`` and
    ``first + 2``) the bins of every region, rounded to pixels as
    ``roi_pooling_2d`` does: whether each of the ``size`` positions lies
    in each bin ``(R, bins, size)``, and whether a bin is empty ``(R,
    bins)``."""
    start, end = [gb.op('Round', [gb.op('Mul', [
        _column(gb, regions, column), gb.const(scale, numpy.float64)])])
        for column in (first, first + 2)]
    one = gb.const(1, numpy.float64)
    length = gb.op('Max', [gb.op('Add', [gb.op('Sub', [end, start]), one]),
                           one])
    step = gb.op('Div', [length, gb.const(bins, numpy.float64)])
    index = numpy.arange(bins, dtype=numpy.float64)[None]
    low, high = [
        gb.op('Clip', [gb.op('Add', [gb.op(rounding, [gb.op('Mul', [
            gb.const(index + shift, numpy.float64), step])]), start]),
            gb.const(0, numpy.float64), gb.const(size, numpy.float64)])
        for rounding, shift in (('Floor', 0), ('Ceil', 1))]
    positions = gb.const(numpy.arange(size, dtype=numpy.float64)[None, None])
    inside = gb.op('And', [
        gb.op('GreaterOrEqual', [positions, _ops.unsqueeze(gb, low, [2])]),
        gb.op('Less', [positions, _ops.unsqueeze(gb, high, [2])])])
    return inside, gb.op('LessOrEqual', [high, low])
