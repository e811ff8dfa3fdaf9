"""Converters of the poolings."""
import numpy

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
    ``spatial_scale``, and takes the regions as its second input."""
    func = params.func
    return _ops.one_node('MaxRoiPool', pooled_shape=[func.outh, func.outw],
                      spatial_scale=float(func.spatial_scale))(params)
