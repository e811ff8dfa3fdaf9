"""Converters of the arithmetic, elementwise and reduction functions."""
import numpy
import onnx

from kusari.onnx.functions import _ops
from kusari.onnx.functions._registry import register

_ops.register_ops({
    'Absolute': 'Abs', 'Add': 'Add', 'Sub': 'Sub', 'Mul': 'Mul',
    'Div': 'Div', 'Exp': 'Exp', 'Identity': 'Identity', 'Maximum': 'Max',
    'Minimum': 'Min', 'Neg': 'Neg', 'PowVarVar': 'Pow', 'Sqrt': 'Sqrt',
})

# Operations with a constant: (ONNX op, whether the constant comes first).
_WITH_CONSTANT = {
    'AddConstant': ('Add', False),
    'SubFromConstant': ('Sub', True),
    'MulConstant': ('Mul', False),
    'DivFromConstant': ('Div', True),
    'PowVarConst': ('Pow', False),
    'PowConstVar': ('Pow', True),
}


def _convert_with_constant(params):
    op_type, constant_first = _WITH_CONSTANT[type(params.func).__name__]
    gb = params.graph_builder()
    value = _ops.scalar(gb, params, params.func.value)
    x = params.input_names[0]
    inputs = [value, x] if constant_first else [x, value]
    gb.op_output_named(op_type, inputs, params.output_names)
    return gb.nodes()


register(*_WITH_CONSTANT)(_convert_with_constant)

# Reductions over ``axis`` with ``keepdims``.
_REDUCTIONS = {
    'Sum': 'ReduceSum', 'Mean': 'ReduceMean', 'Max': 'ReduceMax',
    'Min': 'ReduceMin', 'Prod': 'ReduceProd', 'LogSumExp': 'ReduceLogSumExp',
}


def _convert_reduction(params):
    func = params.func
    gb = params.graph_builder()
    _ops.reduce(gb, params, _REDUCTIONS[type(func).__name__],
                params.input_names[0], func.axis, func.keepdims,
                params.output_names)
    return gb.nodes()


register(*_REDUCTIONS)(_convert_reduction)


@register('ArgMax', 'ArgMin')
def convert_arg_selection(params):
    """An int32 index over one axis, or into the flattened input."""
    gb = params.graph_builder()
    x = params.input_names[0]
    axis = params.func.axis
    if axis is None:
        x = _ops.reshape(gb, x, (-1,))
        axis = 0
    index = gb.op(type(params.func).__name__, [x], axis=axis, keepdims=0)
    gb.op_output_named('Cast', [index], params.output_names,
                       to=onnx.TensorProto.INT32)
    return gb.nodes()


@register('Clip')
def convert_clip(params):
    gb = params.graph_builder()
    bounds = [''
              if bound is None else _ops.scalar(gb, params, bound)
              for bound in (params.func.x_min, params.func.x_max)]
    gb.op_output_named('Clip', [params.input_names[0]] + bounds,
                       params.output_names)
    return gb.nodes()


@register('Square')
def convert_square(params):
    x = params.input_names[0]
    gb = params.graph_builder()
    gb.op_output_named('Mul', [x, x], params.output_names)
    return gb.nodes()


@register('Rsqrt')
def convert_rsqrt(params):
    gb = params.graph_builder()
    gb.op_output_named('Reciprocal', [gb.op('Sqrt', params.input_names)],
                       params.output_names)
    return gb.nodes()


@register('LinearInterpolate')
def convert_linear_interpolate(params):
    """``y + p (x - y)``."""
    p, x, y = params.input_names
    gb = params.graph_builder()
    scaled = gb.op('Mul', [p, gb.op('Sub', [x, y])])
    gb.op_output_named('Add', [y, scaled], params.output_names)
    return gb.nodes()


@register('MatMul')
def convert_matmul(params):
    """Transposed operands exchange their last two axes first."""
    gb = params.graph_builder()
    operands = []
    for i, transposed in enumerate((params.func.transa, params.func.transb)):
        name = params.input_names[i]
        ndim = len(params.input_shape(i))
        if transposed and ndim >= 2:
            perm = list(range(ndim))
            perm[-2:] = perm[-1], perm[-2]
            name = gb.op('Transpose', [name], perm=perm)
        operands.append(name)
    gb.op_output_named('MatMul', operands, params.output_names)
    return gb.nodes()


@register('BroadcastTo')
def convert_broadcast_to(params):
    gb = params.graph_builder()
    # BroadcastTo keeps its target shape in ``_shape``.
    shape = gb.const(list(params.func._shape), numpy.int64)
    gb.op_output_named('Expand', [params.input_names[0], shape],
                       params.output_names)
    return gb.nodes()
