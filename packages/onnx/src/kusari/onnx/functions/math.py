"""Converters of the arithmetic, elementwise and reduction functions."""
import onnx

from kusari.onnx.functions import _ops
from kusari.onnx.functions._registry import register

_ops.register_ops({
    'Absolute': 'Abs', 'Add': 'Add', 'Sub': 'Sub', 'Mul': 'Mul',
    'Div': 'Div', 'Exp': 'Exp', 'Identity': 'Identity', 'Maximum': 'Max',
    'Minimum': 'Min', 'Neg': 'Neg', 'PowVarVar': 'Pow', 'Sqrt': 'Sqrt',
    'Log': 'Log', 'Sin': 'Sin', 'Cos': 'Cos', 'Tan': 'Tan', 'Arcsin': 'Asin',
    'Arccos': 'Acos', 'Arctan': 'Atan',
})

# Operations with a constant: (ONNX op, whether the constant comes first).
_WITH_CONSTANT = {
    'AddConstant': ('Add', False),
    'SubFromConstant': ('Sub', True),
    'MulConstant': ('Mul', False),
    'DivByConstant': ('Div', False),
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
    _ops.reduce(gb, _REDUCTIONS[type(func).__name__],
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
    _ops.clip(gb, params.input_names[0], params.func.x_min,
              params.func.x_max, params.input_dtype(), params.output_names)
    return gb.nodes()


@register('Sinh', 'Cosh')
def convert_hyperbolic(params):
    """Sinh and Cosh, from opset 9; before, ``(exp(x) -+ exp(-x)) /
    2``."""
    op_type = type(params.func).__name__
    gb = params.graph_builder()
    x = params.input_names[0]
    if _ops.since(gb, 9):
        gb.op_output_named(op_type, [x], params.output_names)
        return gb.nodes()
    pair = [gb.op('Exp', [x]), gb.op('Exp', [gb.op('Neg', [x])])]
    gb.op_output_named(
        'Div', [gb.op('Sub' if op_type == 'Sinh' else 'Add', pair),
                _ops.scalar(gb, params, 2)], params.output_names)
    return gb.nodes()


@register('sign')
def convert_sign(params):
    """``sign`` (recorded during an export, see
    :mod:`kusari.onnx.mapping`): Sign from opset 9; before, ``(x > 0) - (x
    < 0)``."""
    gb = params.graph_builder()
    x = params.input_names[0]
    if _ops.since(gb, 9):
        gb.op_output_named('Sign', [x], params.output_names)
        return gb.nodes()
    zero = _ops.scalar(gb, params, 0)
    to = onnx.helper.np_dtype_to_tensor_dtype(params.input_dtype())
    positive, negative = [gb.op('Cast', [gb.op(op_type, [x, zero])], to=to)
                          for op_type in ('Greater', 'Less')]
    gb.op_output_named('Sub', [positive, negative], params.output_names)
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
    _ops.expand(gb, params.input_names[0], params.func._shape,
                params.input_dtype(), params.output_names)
    return gb.nodes()
