"""Converters of the normalizations."""
import onnx

from kusari.onnx.functions import _ops
from kusari.onnx.functions._registry import register


def _parameter_shape(x_shape, key_axes):
    """The shape a parameter over ``key_axes`` of x broadcasts with."""
    return tuple(side if axis in key_axes else 1
                 for axis, side in enumerate(x_shape))


def _standardize(gb, params, x, mean, var, gamma, beta):
    """``(x - mean) / sqrt(var + eps) * gamma + beta`` into the output,
    the parameters (of any float dtype) reshaped to broadcast against x
    and cast to its dtype."""
    func = params.func
    shape = _parameter_shape(params.input_shape(), func.key_axes)
    to = onnx.helper.np_dtype_to_tensor_dtype(params.input_dtype())

    def broadcastable(name):
        return gb.op('Cast', [_ops.reshape(gb, name, shape)], to=to)

    if gamma is not None:
        gamma, beta = broadcastable(gamma), broadcastable(beta)
    if mean is None:  # batch statistics
        mean = _ops.reduce(gb, 'ReduceMean', x, func.stat_axes,
                           True)
        deviation = gb.op('Sub', [x, mean])
        var = _ops.reduce(gb, 'ReduceMean',
                          gb.op('Mul', [deviation, deviation]),
                          func.stat_axes, True)
    else:
        deviation = gb.op('Sub', [x, broadcastable(mean)])
        var = broadcastable(var)
    std = gb.op('Sqrt', [gb.op('Add', [var, _ops.scalar(gb, params,
                                                        func.eps)])])
    gb.op_output_named(
        'Add', [gb.op('Mul', [gb.op('Div', [deviation, std]), gamma]), beta],
        params.output_names)
    return gb.nodes()


@register('BatchNormalization')
def convert_standardization(params):
    """Normalized with the statistics of x itself (batch normalization
    does so whatever ``config.train``)."""
    x, gamma, beta = params.input_names
    gb = params.graph_builder()
    return _standardize(gb, params, x, None, None, gamma, beta)


@register('GroupNormalization')
def convert_group_normalization(params):
    """Applied to x reshaped to ``(N, groups, channels per group,
    spatial size)`` with gamma and beta ``(groups, channels per group)``:
    ONNX's GroupNormalization (from opset 21, whose scale and bias are
    per channel) of x seen as ``(N, channels, spatial size)``, for
    parameters of x's dtype; else the formula node by node."""
    if not _ops.since(params, 21) or len(
            {params.input_dtype(i) for i in range(3)}) != 1:
        return convert_standardization(params)
    x, gamma, beta = params.input_names
    _, groups, per_group, size = params.input_shape()
    gb = params.graph_builder()
    channels = groups * per_group
    y = gb.op('GroupNormalization', [
        _ops.reshape(gb, x, (0, channels, size)),
        _ops.reshape(gb, gamma, (channels,)),
        _ops.reshape(gb, beta, (channels,))],
        num_groups=groups, epsilon=float(params.func.eps))
    _ops.reshape(gb, y, (0, groups, per_group, size), params.output_names)
    return gb.nodes()


@register('LayerNormalization')
def convert_layer_normalization(params):
    """ONNX's LayerNormalization (from opset 17) over the units, for
    parameters of x's dtype; else the formula node by node."""
    if _ops.since(params, 17) and len(
            {params.input_dtype(i) for i in range(3)}) == 1:
        return _ops.one_node('LayerNormalization', axis=-1,
                             epsilon=float(params.func.eps))(params)
    return convert_standardization(params)


@register('FixedBatchNormalization')
def convert_fixed_batch_normalization(params):
    """ONNX's BatchNormalization (inference) for per-channel parameters
    of x's dtype, else the same formula node by node."""
    x, gamma, beta, mean, var = params.input_names
    dtypes = {params.input_dtype(i) for i in range(5)}
    if tuple(params.func.key_axes) == (1,) and len(dtypes) == 1:
        return _ops.one_node('BatchNormalization',
                          epsilon=float(params.func.eps))(params)
    gb = params.graph_builder()
    return _standardize(gb, params, x, mean, var, gamma, beta)


@register('LocalResponseNormalization')
def convert_local_response_normalization(params):
    """ONNX divides alpha by the window size; Chainer does not."""
    func = params.func
    size = 2 * func.half + 1
    return _ops.one_node('LRN', size=size, alpha=float(func.alpha) * size,
                      beta=float(func.beta), bias=float(func.k))(params)


@register('NormalizeL2')
def convert_normalize_l2(params):
    """``x / (||x||_2 + eps)`` with the norm over ``axis``: ONNX's
    LpNormalization over one axis, which leaves eps out (values differ by
    the factor ``||x|| / (||x|| + eps)``, as in ONNX-Chainer), else the
    formula over several axes."""
    gb = params.graph_builder()
    x = params.input_names[0]
    axis = params.func.axis
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if len(axes) == 1:
        gb.op_output_named('LpNormalization', [x], params.output_names,
                           axis=axes[0], p=2)
        return gb.nodes()
    norm = _ops.reduce(gb, 'ReduceL2', x, axes, True)
    gb.op_output_named(
        'Div', [x, gb.op('Add', [norm, _ops.scalar(gb, params,
                                                   params.func.eps)])],
        params.output_names)
    return gb.nodes()
