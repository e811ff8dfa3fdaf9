"""Stacked (bi)directional Elman RNNs over variable-length sequences."""
from kusari.array import backend
from kusari.autograd.functions.activation.relu import relu
from kusari.autograd.functions.activation.tanh import tanh
from kusari.autograd.functions.connection import _n_step
from kusari.autograd.functions.connection.linear import linear
from kusari.autograd.utils import type_check

_ACTIVATIONS = {'tanh': tanh, 'relu': relu}


class RNNCell(_n_step.Cell):
    """h = activation(W0 x + W1 h_prev + b0 + b1); both biases are folded
    into the input projection."""

    def __init__(self, activation):
        self.activation = activation

    def input_projection(self, w, b):
        return w[0], b[0] + b[1]

    def hidden_projection(self, w, b):
        return w[1], None

    def step(self, xw, h, c, W, b):
        return _ACTIVATIONS[self.activation](xw + linear(h, W)), None

    def forward_step(self, tape, rows, xw, hw, h, c):
        xp = backend.get_array_module(h)
        hw += xw
        if self.activation == 'tanh':
            xp.tanh(hw, out=h)
        else:
            xp.maximum(hw, 0, out=h)

    def backward_step(self, tape, rows, gh, gc, g_hw):
        xp = backend.get_array_module(gh)
        h = tape['h'][rows]
        if self.activation == 'tanh':
            xp.multiply(h, h, out=g_hw)
            xp.subtract(gh.dtype.type(1), g_hw, out=g_hw)
            g_hw *= gh
        else:
            xp.multiply(gh, h > 0, out=g_hw)
        return None


def n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs, activation,
                    use_bi_direction, **kwargs):
    """:func:`n_step_rnn` (``use_bi_direction=False``) or
    :func:`n_step_birnn` (True)."""
    func_name = 'n_step_birnn' if use_bi_direction else 'n_step_rnn'
    if activation not in _ACTIVATIONS:
        raise ValueError(f'{func_name}: activation must be one of '
                         f'{sorted(_ACTIVATIONS)}; got {activation!r}')
    hy, _, ys = _n_step.n_step_rnn_base(
        RNNCell(activation), func_name, n_layers, dropout_ratio, hx, None,
        ws, bs, xs, use_bi_direction, kwargs)
    return hy, ys


@type_check.checks_inputs
def n_step_rnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation='tanh',
               **kwargs):
    """Stacked unidirectional Elman RNN over a batch of sequences.

    Layer by layer, from the input ``x_t`` (the previous layer's output,
    through dropout in training) and the previous hidden state::

        h_t = f(W0 x_t + W1 h_{t-1} + b0 + b1)

    with ``f`` tanh or relu. Sequences of different lengths are given
    time-major, sorted by decreasing length (see :func:`n_step_lstm`).

    Args:
        n_layers (int): Number of layers S.
        dropout_ratio (float): Dropout ratio, in [0, 1).
        hx: Variable (S, B, N), the initial hidden states.
        ws: S lists of 2 weights: ``ws[l][0]`` (N, I) for layer 0, (N, N)
            for the others; ``ws[l][1]`` (N, N).
        bs: S lists of 2 biases (N,).
        xs: list of T Variables ``(B_t, I)``, ``B_t`` not increasing.
        activation (str): ``'tanh'`` or ``'relu'``.

    Returns:
        tuple: ``(hy, ys)``: the last hidden states (S, B, N) and the
        tuple of the last layer's outputs ``ys[t]`` (B_t, N).
    """
    return n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs,
                           activation, False, **kwargs)


@type_check.checks_inputs
def n_step_birnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation='tanh',
                 **kwargs):
    """Stacked bidirectional Elman RNN over a batch of sequences.

    As :func:`n_step_rnn`, with a forward and a backward RNN per layer,
    whose outputs are concatenated (forward first) into the next layer's
    input. ``hx``, ``ws`` and ``bs`` hold 2 S entries, those of
    layer l, direction d (0 forward, 1 backward) at index ``2 l + d``;
    the input weights of the layers above 0 are (N, 2 N), and the
    outputs ``ys[t]`` are (B_t, 2 N).
    """
    return n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs,
                           activation, True, **kwargs)
