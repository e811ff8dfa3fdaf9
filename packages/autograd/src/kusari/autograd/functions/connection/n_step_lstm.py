"""Stacked (bi)directional LSTMs over variable-length sequences."""
from kusari.array import backend
from kusari.autograd.functions.activation._grad_nodes import stable_sigmoid
from kusari.autograd.functions.activation.sigmoid import output_derivative
from kusari.autograd.functions.activation.sigmoid import sigmoid
from kusari.autograd.functions.activation.tanh import tanh
from kusari.autograd.functions.array.concat import concat
from kusari.autograd.functions.array.split_axis import split_axis
from kusari.autograd.functions.connection import _n_step
from kusari.autograd.functions.connection.linear import linear
from kusari.autograd.utils import type_check

# The gates in consecutive blocks of N columns, in the order i, f, o, a
# (the three sigmoids side by side): weights W0, W1, W3, W2 for the input
# and W4, W5, W7, W6 for the hidden state.
_INPUT_GATES = (0, 1, 3, 2)
_HIDDEN_GATES = (4, 5, 7, 6)


def _blocks(params, order):
    """The matrices (or vectors) ``params[g]`` for g in ``order``, one
    above the other."""
    return concat([params[g] for g in order], axis=0)


class LSTMCell(_n_step.Cell):
    """c = sigmoid(f) c_prev + sigmoid(i) tanh(a), h = sigmoid(o) tanh(c);
    both biases of a gate are folded into the input projection."""

    n_gates = 4
    has_cell = True

    def input_projection(self, w, b):
        return (_blocks(w, _INPUT_GATES),
                _blocks(b, _INPUT_GATES) + _blocks(b, _HIDDEN_GATES))

    def hidden_projection(self, w, b):
        return _blocks(w, _HIDDEN_GATES), None

    def step(self, xw, h, c, W, b):
        batch, units = h.shape
        sigmoids, a = split_axis(xw + linear(h, W), [3 * units], axis=1)
        i, f, o = split_axis(sigmoid(sigmoids), 3, axis=1)
        c_prev, *rest = (c,) if len(c) == batch else \
            split_axis(c, [batch], axis=0)
        c = f * c_prev + i * tanh(a)
        h = o * tanh(c)
        return h, concat((c, *rest), axis=0) if rest else c

    def tape(self, xp, rows, units, dtype):
        # gates: i, f, o, a; c_prev: the previous cell state; tanh_c:
        # tanh of the new one.
        return {'gates': xp.empty((rows, 4 * units), dtype),
                'c_prev': xp.empty((rows, units), dtype),
                'tanh_c': xp.empty((rows, units), dtype)}

    def forward_step(self, tape, rows, xw, hw, h, c):
        xp = backend.get_array_module(h)
        units = h.shape[1]
        gates = tape['gates'][rows]
        xp.add(xw, hw, out=gates)
        stable_sigmoid(xp, gates[:, :3 * units])
        i, f, o, a = (gates[:, k * units:(k + 1) * units] for k in range(4))
        xp.tanh(a, out=a)
        tape['c_prev'][rows] = c
        c *= f
        c += i * a
        tanh_c = tape['tanh_c'][rows]
        xp.tanh(c, out=tanh_c)
        xp.multiply(o, tanh_c, out=h)

    def backward_step(self, tape, rows, gh, gc, g_hw):
        xp = backend.get_array_module(gh)
        units = gh.shape[1]
        gates = tape['gates'][rows]
        i, f, o, a = (gates[:, k * units:(k + 1) * units] for k in range(4))
        g_i, g_f, g_o, g_a = (g_hw[:, k * units:(k + 1) * units]
                              for k in range(4))
        tanh_c = tape['tanh_c'][rows]
        one = gh.dtype.type(1)
        # The gradient reaching c: gc + gh o (1 - tanh(c)^2).
        xp.multiply(tanh_c, tanh_c, out=g_a)
        xp.subtract(one, g_a, out=g_a)
        g_a *= o
        g_a *= gh
        gc += g_a
        xp.multiply(gh, tanh_c, out=g_o)
        g_o *= output_derivative(xp, o)
        xp.multiply(gc, a, out=g_i)
        g_i *= output_derivative(xp, i)
        xp.multiply(gc, tape['c_prev'][rows], out=g_f)
        g_f *= output_derivative(xp, f)
        xp.multiply(a, a, out=g_a)
        xp.subtract(one, g_a, out=g_a)
        g_a *= i
        g_a *= gc
        gc *= f
        return None


def n_step_lstm_base(n_layers, dropout_ratio, hx, cx, ws, bs, xs,
                     use_bi_direction, **kwargs):
    """:func:`n_step_lstm` (``use_bi_direction=False``) or
    :func:`n_step_bilstm` (True)."""
    func_name = 'n_step_bilstm' if use_bi_direction else 'n_step_lstm'
    return _n_step.n_step_rnn_base(
        LSTMCell(), func_name, n_layers, dropout_ratio, hx, cx, ws, bs, xs,
        use_bi_direction, kwargs)


@type_check.checks_inputs
def n_step_lstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs, **kwargs):
    """Stacked unidirectional LSTM over a batch of sequences.

    Layer by layer, from the input ``x_t`` (the previous layer's output,
    through dropout in training) and the state of the previous step::

        i_t = sigmoid(W0 x_t + W4 h_{t-1} + b0 + b4)
        f_t = sigmoid(W1 x_t + W5 h_{t-1} + b1 + b5)
        a_t = tanh(W2 x_t + W6 h_{t-1} + b2 + b6)
        o_t = sigmoid(W3 x_t + W7 h_{t-1} + b3 + b7)
        c_t = f_t * c_{t-1} + i_t * a_t
        h_t = o_t * tanh(c_t)

    Sequences of different lengths are given time-major: sort them by
    decreasing length and transpose (:func:`transpose_sequence`), so that
    ``xs[t]`` holds step t of the ``B_t`` sequences still running and
    ``B_0 >= B_1 >= ...``. Dropout of ratio ``dropout_ratio`` applies to
    the input of every layer but the first when ``config.train`` is on.

    Args:
        n_layers (int): Number of layers S.
        dropout_ratio (float): Dropout ratio, in [0, 1).
        hx: Variable (S, B, N), the initial hidden states.
        cx: Variable (S, B, N), the initial cell states.
        ws: S lists of 8 weights: ``ws[l][0..3]`` (N, I) for layer 0,
            (N, N) for the others; ``ws[l][4..7]`` (N, N).
        bs: S lists of 8 biases (N,).
        xs: list of T Variables ``(B_t, I)``.

    Returns:
        tuple: ``(hy, cy, ys)``: the last hidden and cell states (S, B, N)
        of every layer and the tuple of the last layer's outputs
        ``ys[t]`` (B_t, N).
    """
    return n_step_lstm_base(n_layers, dropout_ratio, hx, cx, ws, bs, xs,
                            False, **kwargs)


@type_check.checks_inputs
def n_step_bilstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs, **kwargs):
    """Stacked bidirectional LSTM over a batch of sequences.

    As :func:`n_step_lstm`, with a forward and a backward LSTM per layer,
    whose outputs are concatenated (forward first) into the next layer's
    input. ``hx``, ``cx``, ``ws`` and ``bs`` hold 2 S entries, those of
    layer l, direction d (0 forward, 1 backward) at index ``2 l + d``;
    the input weights of the layers above 0 are (N, 2 N), and the
    outputs ``ys[t]`` are (B_t, 2 N).
    """
    return n_step_lstm_base(n_layers, dropout_ratio, hx, cx, ws, bs, xs,
                            True, **kwargs)
