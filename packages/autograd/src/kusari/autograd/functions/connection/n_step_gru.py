"""Stacked (bi)directional GRUs over variable-length sequences."""
from kusari.autograd.functions.activation.sigmoid import sigmoid
from kusari.autograd.functions.activation.tanh import tanh
from kusari.autograd.functions.array.concat import concat
from kusari.autograd.functions.array.split_axis import split_axis
from kusari.autograd.functions.connection import _n_step
from kusari.autograd.functions.connection.linear import linear
from kusari.autograd.utils import type_check


class GRUCell(_n_step.Cell):
    """Gates r, z and the candidate in consecutive blocks of N columns."""

    n_gates = 3

    def input_projection(self, w, b):
        return concat(w[:3], axis=0), concat(b[:3], axis=0)

    def hidden_projection(self, w, b):
        return concat(w[3:], axis=0), concat(b[3:], axis=0)

    def step(self, xw, h, c, W, b):
        units = h.shape[1]
        x_rz, x_new = split_axis(xw, [2 * units], axis=1)
        h_rz, h_new = split_axis(linear(h, W, b), [2 * units], axis=1)
        r, z = split_axis(sigmoid(x_rz + h_rz), 2, axis=1)
        candidate = tanh(x_new + r * h_new)
        return candidate + z * (h - candidate), None


def n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs,
                    use_bi_direction, **kwargs):
    """:func:`n_step_gru` (``use_bi_direction=False``) or
    :func:`n_step_bigru` (True)."""
    func_name = 'n_step_bigru' if use_bi_direction else 'n_step_gru'
    hy, _, ys = _n_step.n_step_rnn_base(
        GRUCell(), func_name, n_layers, dropout_ratio, hx, None, ws, bs, xs,
        use_bi_direction, kwargs)
    return hy, ys


@type_check.checks_inputs
def n_step_gru(n_layers, dropout_ratio, hx, ws, bs, xs, **kwargs):
    """Stacked unidirectional GRU over a batch of sequences.

    Layer by layer, from the input ``x_t`` (the previous layer's output,
    through dropout in training) and the previous hidden state::

        r_t = sigmoid(W0 x_t + W3 h_{t-1} + b0 + b3)
        z_t = sigmoid(W1 x_t + W4 h_{t-1} + b1 + b4)
        n_t = tanh(W2 x_t + b2 + r_t * (W5 h_{t-1} + b5))
        h_t = (1 - z_t) * n_t + z_t * h_{t-1}

    Sequences of different lengths are given time-major, sorted by
    decreasing length (see :func:`n_step_lstm`).

    Args:
        n_layers (int): Number of layers S.
        dropout_ratio (float): Dropout ratio, in [0, 1).
        hx: Variable (S, B, N), the initial hidden states.
        ws: S lists of 6 weights: ``ws[l][0..2]`` (N, I) for layer 0,
            (N, N) for the others; ``ws[l][3..5]`` (N, N).
        bs: S lists of 6 biases (N,).
        xs: list of T Variables ``(B_t, I)``, ``B_t`` not increasing.

    Returns:
        tuple: ``(hy, ys)``: the last hidden states (S, B, N) and the
        tuple of the last layer's outputs ``ys[t]`` (B_t, N).
    """
    return n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs, False,
                           **kwargs)


@type_check.checks_inputs
def n_step_bigru(n_layers, dropout_ratio, hx, ws, bs, xs, **kwargs):
    """Stacked bidirectional GRU over a batch of sequences.

    As :func:`n_step_gru`, with a forward and a backward GRU per layer,
    whose outputs are concatenated (forward first) into the next layer's
    input. ``hx``, ``ws`` and ``bs`` hold 2 S entries, those of
    layer l, direction d (0 forward, 1 backward) at index ``2 l + d``;
    the input weights of the layers above 0 are (N, 2 N), and the
    outputs ``ys[t]`` are (B_t, 2 N).
    """
    return n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs, True,
                           **kwargs)
