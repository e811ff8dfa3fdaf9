"""Stacked (bi)directional GRUs over variable-length sequences."""
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


class GRUCell(_n_step.Cell):
    """Gates r, z and the candidate in consecutive blocks of N columns."""

    n_gates = 3
    hidden_bias = True

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

    def tape(self, xp, rows, units, dtype):
        # gates: r, z and the candidate n; hw_new: the candidate's hidden
        # projection; g_new: the gradient of n's pre-activation, which is
        # that of the input projection's candidate block.
        return {'gates': xp.empty((rows, 3 * units), dtype),
                'hw_new': xp.empty((rows, units), dtype),
                'g_new': xp.empty((rows, units), dtype)}

    def forward_step(self, tape, rows, xw, hw, h, c):
        xp = backend.get_array_module(h)
        units = h.shape[1]
        gates = tape['gates'][rows]
        rz, new = gates[:, :2 * units], gates[:, 2 * units:]
        xp.add(xw[:, :2 * units], hw[:, :2 * units], out=rz)
        stable_sigmoid(xp, rz)
        hw_new = hw[:, 2 * units:]
        tape['hw_new'][rows] = hw_new
        xp.multiply(rz[:, :units], hw_new, out=new)
        new += xw[:, 2 * units:]
        xp.tanh(new, out=new)
        # h = n + z (h_prev - n)
        h -= new
        h *= rz[:, units:]
        h += new

    def backward_step(self, tape, rows, gh, gc, g_hw):
        xp = backend.get_array_module(gh)
        units = gh.shape[1]
        gates = tape['gates'][rows]
        r, z, new = (gates[:, :units], gates[:, units:2 * units],
                     gates[:, 2 * units:])
        g_r, g_z, g_hw_new = (g_hw[:, :units], g_hw[:, units:2 * units],
                              g_hw[:, 2 * units:])
        one = gh.dtype.type(1)
        xp.subtract(tape['h_prev'][rows], new, out=g_z)
        g_z *= gh
        g_z *= output_derivative(xp, z)
        g_new = tape['g_new'][rows]
        xp.subtract(one, z, out=g_new)
        g_new *= gh
        g_new *= one - new * new
        xp.multiply(g_new, r, out=g_hw_new)
        xp.multiply(g_new, tape['hw_new'][rows], out=g_r)
        g_r *= output_derivative(xp, r)
        return gh * z

    def input_grad(self, tape, g_hw):
        g_hw[:, 2 * tape['g_new'].shape[1]:] = tape['g_new']
        return g_hw


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
