"""Stacked (bi)directional LSTMs over variable-length sequences."""
from kusari.autograd.functions.activation.lstm import lstm
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.array.stack import stack
from kusari.autograd.functions.connection import _n_step
from kusari.autograd.functions.connection.linear import linear
from kusari.autograd.utils import type_check

# F.lstm reads the gates (a, i, f, o) interleaved; the weights come as
# (i, f, a, o) for the input (W0..W3) and for the hidden state (W4..W7).
_INPUT_GATES = (2, 0, 1, 3)
_HIDDEN_GATES = (6, 4, 5, 7)


def _interleaved(params, order):
    """The matrices (or vectors) ``params[g]`` for g in ``order``, stacked
    so that row ``4 j + k`` is row j of the k-th."""
    stacked = stack([params[g] for g in order], axis=1)
    return reshape(stacked, (4 * stacked.shape[0],) + stacked.shape[2:])


class LSTMCell(_n_step.Cell):
    """c = sigmoid(f) c_prev + sigmoid(i) tanh(a), h = sigmoid(o) tanh(c);
    both biases of a gate are folded into the input projection."""

    n_gates = 4
    has_cell = True

    def input_projection(self, w, b):
        return (_interleaved(w, _INPUT_GATES),
                _interleaved(b, _INPUT_GATES) +
                _interleaved(b, _HIDDEN_GATES))

    def hidden_projection(self, w, b):
        return _interleaved(w, _HIDDEN_GATES), None

    def step(self, xw, h, c, W, b):
        c, h = lstm(c, xw + linear(h, W))
        return h, c


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
