"""Converters of the connections: convolutions, linear, embeddings."""
from kusari.autograd.utils import conv
from kusari.onnx.functions import _ops
from kusari.onnx.functions._registry import register


@register('ConvolutionND', 'Convolution2DFunction')
def convert_convolution(params):
    func = params.func
    dims = params.input_shape(0)[2:]
    ksize = params.input_shape(1)[2:]
    outsize = func.outsize or tuple(
        conv.get_conv_outsize(d, k, s, p, func.cover_all, dl)
        for d, k, s, p, dl in zip(dims, ksize, func.stride, func.pad,
                                  func.dilate))
    return _ops.one_node(
        'Conv', kernel_shape=list(ksize), strides=list(func.stride),
        pads=_ops.window_pads(dims, outsize, ksize, func.stride, func.pad,
                              func.dilate),
        dilations=list(func.dilate), group=func.groups)(params)


@register('DeconvolutionND', 'Deconvolution2DFunction')
def convert_deconvolution(params):
    """A larger ``outsize`` than the smallest one is ONNX's
    ``output_padding``."""
    func = params.func
    dims = params.input_shape(0)[2:]
    ksize = params.input_shape(1)[2:]
    smallest = [conv.get_deconv_outsize(d, k, s, p, d=dl)
                for d, k, s, p, dl in zip(dims, ksize, func.stride, func.pad,
                                          func.dilate)]
    outsize = func.outsize or smallest
    return _ops.one_node(
        'ConvTranspose', kernel_shape=list(ksize), strides=list(func.stride),
        pads=list(func.pad) * 2, dilations=list(func.dilate),
        group=func.groups,
        output_padding=[o - s for o, s in zip(outsize, smallest)])(params)


@register('LinearFunction')
def convert_linear(params):
    """``x W^T + b``: one Gemm for a matrix x."""
    gb = params.graph_builder()
    if len(params.input_shape(0)) == 2:
        inputs = list(params.input_names)
        if len(inputs) == 2 and not _ops.since(gb, 11):  # C is required
            inputs.append(_ops.scalar(gb, params, 0))
        gb.op_output_named('Gemm', inputs, params.output_names, transB=1)
        return gb.nodes()
    x, W = params.input_names[:2]
    y = gb.op('MatMul', [x, gb.op('Transpose', [W], perm=[1, 0])])
    if len(params.input_names) == 3:
        gb.op_output_named('Add', [y, params.input_names[2]],
                           params.output_names)
    else:
        gb.op_output_named('Identity', [y], params.output_names)
    return gb.nodes()


@register('EmbedIDFunction')
def convert_embed_id(params):
    """Rows of W; the ids equal to ``ignore_label`` give zeros."""
    x, W = params.input_names
    gb = params.graph_builder()
    ignore_label = params.func.ignore_label
    if ignore_label is None:
        gb.op_output_named('Gather', [W, x], params.output_names, axis=0)
        return gb.nodes()
    ignored = gb.op('Equal', [x, _ops.scalar(gb, params, ignore_label)])
    safe = _ops.where(gb, ignored, _ops.scalar(gb, params, 0), x,
                      params.input_dtype(0))
    rows = gb.op('Gather', [W, safe], axis=0)
    _ops.where(gb, _ops.unsqueeze(gb, ignored, [len(params.input_shape())]),
               gb.const(0, params.input_dtype(1)), rows,
               params.input_dtype(1), params.output_names)
    return gb.nodes()
