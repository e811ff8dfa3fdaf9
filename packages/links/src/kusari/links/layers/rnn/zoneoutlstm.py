"""LSTM layer regularized by zoneout."""
from kusari.autograd.functions.activation.sigmoid import sigmoid
from kusari.autograd.functions.activation.tanh import tanh
from kusari.autograd.functions.noise.zoneout import zoneout
from kusari.links import link
from kusari.links.layers.connection import linear
from kusari.links.layers.rnn import _stateful


class StatefulZoneoutLSTM(_stateful.StatefulMixin, link.Chain):
    """Fully-connected LSTM layer with zoneout (Krueger et al., 2016): in
    training, each unit of the cell state and of the output keeps its
    previous value with probability ``c_ratio`` and ``h_ratio`` (see
    :func:`~kusari.autograd.functions.zoneout`).

    Args:
        in_size (int or None): Input size.
        out_size (int): Output (and cell state) size N.
        c_ratio (float): Zoneout ratio of the cell state.
        h_ratio (float): Zoneout ratio of the output.

    Attributes:
        upward, lateral (Linear): Input and previous output to the gate
            pre-activations.
        c, h (~kusari.autograd.Variable): The state, or None.
    """

    state_names = ('c', 'h')

    def __init__(self, in_size, out_size, c_ratio=0.5, h_ratio=0.5):
        super().__init__()
        self.state_size = out_size
        self.c_ratio = c_ratio
        self.h_ratio = h_ratio
        self.reset_state()
        with self.init_scope():
            self.upward = linear.Linear(in_size, 4 * out_size)
            self.lateral = linear.Linear(out_size, 4 * out_size, nobias=True)

    def set_state(self, c, h):
        """Set the cell state ``c`` and the output ``h`` (Variables)."""
        self._set_states(c=c, h=h)

    def forward(self, x):
        """One step from ``x`` ``(B, in_size)``; returns ``h``."""
        lstm_in = self.upward(x)
        if self.h is None:
            self.h = self.zero_state(x.shape[0], x.dtype)
        else:
            lstm_in += self.lateral(self.h)
        if self.c is None:
            self.c = self.zero_state(x.shape[0], x.dtype)
        a, i, f, o = _stateful.lstm_gates(lstm_in, self.state_size)
        c = tanh(a) * sigmoid(i) + sigmoid(f) * self.c
        self.c = zoneout(self.c, c, self.c_ratio)
        self.h = zoneout(self.h, sigmoid(o) * tanh(c), self.h_ratio)
        return self.h
