"""LSTM layer with peephole connections."""
from kusari.autograd.functions.activation.sigmoid import sigmoid
from kusari.autograd.functions.activation.tanh import tanh
from kusari.links import link
from kusari.links.layers.connection import linear
from kusari.links.layers.rnn import _stateful


class StatefulPeepholeLSTM(_stateful.StatefulMixin, link.Chain):
    """Fully-connected LSTM layer with peephole connections (Gers and
    Schmidhuber, 2000): the input and forget gates also see the previous
    cell state, the output gate the new one.

    Args:
        in_size (int or None): Input size.
        out_size (int): Output (and cell state) size N.

    Attributes:
        upward, lateral (Linear): Input and previous output to the gate
            pre-activations (a, i, f, o interleaved).
        peep_i, peep_f, peep_o (Linear): Cell state to the i, f, o gates.
        c, h (~kusari.autograd.Variable): The state, or None.
    """

    state_names = ('c', 'h')

    def __init__(self, in_size, out_size):
        super().__init__()
        self.state_size = out_size
        self.reset_state()
        with self.init_scope():
            self.upward = linear.Linear(in_size, 4 * out_size)
            self.lateral = linear.Linear(out_size, 4 * out_size, nobias=True)
            self.peep_i = linear.Linear(out_size, out_size, nobias=True)
            self.peep_f = linear.Linear(out_size, out_size, nobias=True)
            self.peep_o = linear.Linear(out_size, out_size, nobias=True)

    def forward(self, x):
        """One step from ``x`` ``(B, in_size)``; returns ``h``."""
        lstm_in = self.upward(x)
        if self.h is not None:
            lstm_in += self.lateral(self.h)
        if self.c is None:
            self.c = self.zero_state(x.shape[0], x.dtype)
        a, i, f, o = _stateful.lstm_gates(lstm_in, self.state_size)
        i = sigmoid(i + self.peep_i(self.c))
        f = sigmoid(f + self.peep_f(self.c))
        self.c = tanh(a) * i + f * self.c
        o = sigmoid(o + self.peep_o(self.c))
        self.h = o * tanh(self.c)
        return self.h
