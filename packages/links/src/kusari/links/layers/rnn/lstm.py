"""Fully-connected LSTM layers: stateless and stateful."""
from kusari.array import initializers
from kusari.autograd.functions.activation import lstm
from kusari.autograd.functions.array.concat import concat
from kusari.autograd.functions.array.split_axis import split_axis
from kusari.links import link
from kusari.links.layers.connection import linear
from kusari.links.layers.rnn import _stateful

# Gates a, i, f, o sit interleaved in the 4 N outputs, as F.lstm reads
# them; f is the one whose bias starts at forget_bias_init.
_FORGET_GATE = 2


class LSTMBase(link.Chain):
    """The weights of an LSTM layer: ``upward`` (input to the 4 N gate
    pre-activations, with bias) and ``lateral`` (previous output to them,
    without bias).

    Args:
        in_size (int or None): Input size; None infers it on the first
            call. ``LSTMBase(out_size)`` stands for ``LSTMBase(None,
            out_size)``.
        out_size (int): Output (and cell state) size N.
        lateral_init, upward_init: Initializers of the weight of each
            gate, an N-row block of ``lateral.W`` and ``upward.W``; None
            is LeCun normal.
        bias_init: Initializer of the biases of the a, i, o gates (zero).
        forget_bias_init: Initializer of the forget gate's bias (one).
    """

    def __init__(self, in_size, out_size=None, lateral_init=None,
                 upward_init=None, bias_init=None, forget_bias_init=None):
        if out_size is None:
            in_size, out_size = None, in_size
        super().__init__()
        self.state_size = out_size
        self.lateral_init = lateral_init
        self.upward_init = upward_init
        self.bias_init = 0 if bias_init is None else bias_init
        self.forget_bias_init = 1 if forget_bias_init is None \
            else forget_bias_init
        with self.init_scope():
            self.upward = linear.Linear(in_size, 4 * out_size, initialW=0)
            self.lateral = linear.Linear(out_size, 4 * out_size, initialW=0,
                                         nobias=True)
        if in_size is not None:
            self._initialize_params()

    def _initialize_params(self):
        """Fill the weights gate by gate, and the biases."""
        size = self.state_size
        lateral_init = initializers.get_initializer(self.lateral_init)
        upward_init = initializers.get_initializer(self.upward_init)
        for start in range(0, 4 * size, size):
            lateral_init(self.lateral.W.array[start:start + size])
            upward_init(self.upward.W.array[start:start + size])
        bias_init = initializers.get_initializer(self.bias_init)
        forget_init = initializers.get_initializer(self.forget_bias_init)
        gates = self.upward.b.array.reshape(size, 4)
        for gate in range(4):
            init = forget_init if gate == _FORGET_GATE else bias_init
            init(gates[:, gate])

    def _initialize_lazily(self, x):
        """On the first call of a layer built without in_size."""
        if self.upward.W.array is None:
            self.upward._initialize_from_input(x)
            self._initialize_params()


class StatelessLSTM(LSTMBase):
    """Stateless LSTM layer: the state is passed in and returned, as
    :func:`~kusari.autograd.functions.lstm` does, with the gate inputs
    computed by the layer's weights (arguments as in :class:`LSTMBase`).
    """

    def forward(self, c, h, x):
        """One step from the cell state ``c`` and output ``h`` (None for
        zeros) and the input ``x``; returns ``(c_new, h_new)``."""
        self._initialize_lazily(x)
        lstm_in = self.upward(x)
        if h is not None:
            lstm_in += self.lateral(h)
        if c is None:
            with self.device:
                c = self.xp.zeros((x.shape[0], self.state_size), x.dtype)
        return lstm.lstm(c, lstm_in)


class LSTM(_stateful.StatefulMixin, LSTMBase):
    """Fully-connected LSTM layer, holding its cell state ``c`` and output
    ``h`` between calls (arguments as in :class:`LSTMBase`).

    A call may take a smaller batch than the previous one (sequences
    sorted by decreasing length): the first rows of the state are updated
    and the others kept.

    Attributes:
        c (~kusari.autograd.Variable): The cell state, or None.
        h (~kusari.autograd.Variable): The last output, or None.
    """

    state_names = ('c', 'h')

    def __init__(self, in_size, out_size=None, **kwargs):
        super().__init__(in_size, out_size, **kwargs)
        self.reset_state()

    def set_state(self, c, h):
        """Set the cell state ``c`` and the output ``h`` (Variables)."""
        self._set_states(c=c, h=h)

    def forward(self, x):
        """One step from the input ``x`` ``(B, in_size)``; returns the
        output ``(B, out_size)``."""
        batch = x.shape[0]
        previous = self.h
        if previous is not None and previous.shape[0] < batch:
            raise TypeError(
                f'{self._describe()}: the batch size of x ({batch}) must '
                f'not exceed that of the previous state h '
                f'({previous.shape[0]})')
        self._initialize_lazily(x)
        lstm_in = self.upward(x)
        rest = None
        if previous is not None:
            if previous.shape[0] > batch:
                previous, rest = split_axis(previous, [batch], axis=0)
            if batch:
                lstm_in += self.lateral(previous)
        if self.c is None:
            self.c = self.zero_state(batch, x.dtype)
        self.c, y = lstm.lstm(self.c, lstm_in)
        self.h = y if rest is None else concat([y, rest], axis=0)
        return y
