"""Converters of the n-step RNNs to ONNX's LSTM, GRU and RNN operators.

During an export each n-step function is one node (see
:mod:`kusari.onnx.mapping`) whose inputs are its arrays in argument
order: ``hx`` (and ``cx``), the weights, the biases and the time steps
``xs``. Each layer becomes one ONNX operator over both directions; the
time steps are padded to the full batch and stacked, with the length of
each sequence as ``sequence_lens`` where they differ. Dropout between the
layers is left out: the graph infers.
"""
import numpy

from kusari.onnx.functions import _ops
from kusari.onnx.functions._registry import register


class _Kind:
    """An ONNX recurrent operator and where Chainer's weights go in it.

    Attributes:
        op_type (str): LSTM, GRU or RNN.
        input_gates, hidden_gates: the indices in a layer's ``ws`` (and
            ``bs``) of the matrices acting on the input and on the hidden
            state, in the ONNX operator's gate order.
        attributes (dict): attributes of the operator.
    """

    def __init__(self, op_type, input_gates, hidden_gates, **attributes):
        self.op_type = op_type
        self.input_gates = input_gates
        self.hidden_gates = hidden_gates
        self.attributes = attributes


# Chainer's gates: LSTM i, f, a, o (ONNX i, o, f, c); GRU r, z, n (ONNX
# z, r, h, with the reset gate applied after the hidden product).
_LSTM = _Kind('LSTM', (0, 3, 1, 2), (4, 7, 5, 6))
_GRU = _Kind('GRU', (1, 0, 2), (4, 3, 5), linear_before_reset=1)
_RNN = _Kind('RNN', (0,), (1,))


def _stacked(gb, names, axis):
    """The tensors ``names`` concatenated (one of them as itself)."""
    return names[0] if len(names) == 1 else gb.op('Concat', list(names),
                                                   axis=axis)


def _time_major(gb, xs, batches, dtype):
    """``(T, B, I)``: the time steps ``xs`` of ``batches`` rows, padded
    with zero rows to the first's."""
    steps = []
    for x, rows in zip(xs, batches):
        if rows < batches[0]:
            x = _ops.pad(gb, x, ((0, batches[0] - rows), (0, 0)), 'constant',
                         0, dtype)
        steps.append(_ops.unsqueeze(gb, x, [0]))
    return _stacked(gb, steps, 0)


def _layer_weights(gb, kind, ws, bs):
    """W, R and B of one layer: per direction the matrices of the gates
    (and the input then the hidden biases) concatenated, the directions
    stacked."""
    weights = [], [], []
    for w, b in zip(ws, bs):
        weights[0].append(_stacked(gb, [w[g] for g in kind.input_gates], 0))
        weights[1].append(_stacked(gb, [w[g] for g in kind.hidden_gates],
                                   0))
        weights[2].append(_stacked(
            gb, [b[g] for g in kind.input_gates + kind.hidden_gates], 0))
    return [_stacked(gb, [_ops.unsqueeze(gb, name, [0]) for name in names],
                     0) for names in weights]


def _convert(params, kind, has_cell):
    func = params.func
    args, kwargs = func.arguments(params.input_names)
    shapes, _ = func.arguments([node.shape for node in func.inputs])
    if has_cell:
        n_layers, _, hx, cx, ws, bs, xs = args[:7]
        states = [hx, cx]
    else:
        n_layers, _, hx, ws, bs, xs = args[:6]
        states = [hx]
    batches = [shape[0] for shape in shapes[len(states) + 4]]
    directions, _, hidden = shapes[2]
    directions //= n_layers
    gb = params.graph_builder()
    attributes = dict(kind.attributes, hidden_size=hidden, direction=(
        'bidirectional' if directions == 2 else 'forward'))
    if kind is _RNN:
        activation = args[6] if len(args) > 6 else kwargs.get(
            'activation', 'tanh')
        attributes['activations'] = [activation.capitalize()] * directions
    lengths = ''
    if batches[-1] < batches[0]:
        lengths = gb.const([sum(rows > b for rows in batches)
                            for b in range(batches[0])], numpy.int32)
    # Per state, per layer: (directions, B, H).
    initial = [_ops.split(gb, state, [directions] * n_layers, 0)
               if n_layers > 1 else [state] for state in states]
    x = _time_major(gb, xs, batches, params.input_dtype(0))
    finals = [[] for _ in states]
    for layer in range(n_layers):
        first = layer * directions
        W, R, B = _layer_weights(gb, kind, ws[first:first + directions],
                                 bs[first:first + directions])
        outputs = gb.op(
            kind.op_type, [x, W, R, B, lengths] + [
                names[layer] for names in initial],
            num_outputs=1 + len(states), **attributes)
        for final, name in zip(finals, outputs[1:]):
            final.append(name)
        # (T, directions, B, H) to (T, B, directions H)
        x = gb.op('Transpose', [outputs[0]], perm=[0, 2, 1, 3])
        x = _ops.reshape(gb, x, (len(batches), batches[0],
                                 directions * hidden))
    names = func.reconstruct_return_value(params.output_names)
    for final, name in zip(finals, names):
        _ops.emit(gb, 'Concat', final, [name], axis=0)
    for t, (rows, name) in enumerate(zip(batches, names[-1])):
        step = _ops.slice_axes(gb, x, (len(batches), batches[0]), [t, 0],
                               [t + 1, rows], [0, 1], [1, 1])
        _ops.squeeze(gb, step, [0], [name])
    return gb.nodes()


@register('n_step_lstm', 'n_step_bilstm')
def convert_n_step_lstm(params):
    """``(hy, cy, ys)`` of ONNX LSTMs."""
    return _convert(params, _LSTM, True)


@register('n_step_gru', 'n_step_bigru')
def convert_n_step_gru(params):
    """``(hy, ys)`` of ONNX GRUs."""
    return _convert(params, _GRU, False)


@register('n_step_rnn', 'n_step_birnn')
def convert_n_step_rnn(params):
    """``(hy, ys)`` of ONNX RNNs (tanh or relu)."""
    return _convert(params, _RNN, False)
