"""Converters of the activation functions."""
from kusari.onnx.functions import _ops
from kusari.onnx.functions._registry import register

_ops.register_ops({'ReLU': 'Relu', 'Sigmoid': 'Sigmoid', 'Tanh': 'Tanh'})
# Chainer's hard sigmoid is clip(0.2 x + 0.5, 0, 1), ONNX's default.
register('HardSigmoid')(_ops.one_node('HardSigmoid', alpha=0.2, beta=0.5))


@register('ClippedReLU')
def convert_clipped_relu(params):
    gb = params.graph_builder()
    _ops.clip(gb, params.input_names[0], 0, params.func.cap,
              params.input_dtype(), params.output_names)
    return gb.nodes()


@register('ELU')
def convert_elu(params):
    return _ops.one_node('Elu', alpha=float(params.func.alpha))(params)


@register('LeakyReLU')
def convert_leaky_relu(params):
    return _ops.one_node('LeakyRelu', alpha=float(params.func.slope))(params)


@register('Softmax', 'LogSoftmax')
def convert_softmax(params):
    gb = params.graph_builder()
    _ops.softmax(gb, type(params.func).__name__, params.input_names[0],
                 params.func.axis, len(params.input_shape()),
                 params.output_names)
    return gb.nodes()


@register('PReLU')
def convert_prelu(params):
    """ONNX broadcasts the slope from the last axes: give W trailing
    length-one axes so that it spans ``x.shape[1:1 + W.ndim]``."""
    gb = params.graph_builder()
    x, W = params.input_names
    x_ndim = len(params.input_shape(0))
    w_shape = params.input_shape(1)
    slope = _ops.reshape(
        gb, W, tuple(w_shape) + (1,) * (x_ndim - 1 - len(w_shape)))
    gb.op_output_named('PRelu', [x, slope], params.output_names)
    return gb.nodes()


@register('Softplus')
def convert_softplus(params):
    """``log(1 + exp(beta x)) / beta``."""
    beta = float(params.func.beta)
    if beta == 1.0:
        return _ops.one_node('Softplus')(params)
    gb = params.graph_builder()
    beta_name = _ops.scalar(gb, params, beta)
    scaled = gb.op('Mul', [params.input_names[0], beta_name])
    gb.op_output_named('Div', [gb.op('Softplus', [scaled]), beta_name],
                       params.output_names)
    return gb.nodes()


@register('GatedCell')
def convert_gated_cell(params):
    """The LSTM cell of ``lstm`` (gates a, i, f, o interleaved along axis
    1 of x): ``c = tanh(a) sigmoid(i) + sigmoid(f) c_prev``, ``h =
    sigmoid(o) tanh(c)``; rows of c_prev past x's pass unchanged."""
    spec = type(params.func.spec).__name__
    if spec != 'LSTM':
        raise ValueError(
            f'export: the gated cell {spec} has no ONNX converter (only '
            f'LSTM has); give one with external_converters={{"GatedCell": '
            f'converter}}')
    c_prev, x = params.input_names
    c_name, h_name = params.output_names
    x_shape = params.input_shape(1)
    gb = params.graph_builder()
    grouped = _ops.reshape(
        gb, x, (x_shape[0], x_shape[1] // 4, 4) + tuple(x_shape[2:]))
    a, i, f, o = [gb.op('Gather', [grouped, gb.const(g, 'int64')], axis=2)
                  for g in range(4)]
    rows, all_rows = x_shape[0], params.input_shape(0)[0]
    kept = c_prev
    if rows < all_rows:
        kept = _ops.slice_axes(gb, c_prev, (all_rows,), [0], [rows], [0],
                               [1])
    c = gb.op('Add', [
        gb.op('Mul', [gb.op('Tanh', [a]), gb.op('Sigmoid', [i])]),
        gb.op('Mul', [gb.op('Sigmoid', [f]), kept])])
    if kept is c_prev:
        gb.op_output_named('Identity', [c], [c_name])
    else:
        rest = _ops.slice_axes(gb, c_prev, (all_rows,), [rows], [all_rows],
                               [0], [1])
        gb.op_output_named('Concat', [c, rest], [c_name], axis=0)
    gb.op_output_named('Mul', [gb.op('Sigmoid', [o]),
                               gb.op('Tanh', [c])], [h_name])
    return gb.nodes()
