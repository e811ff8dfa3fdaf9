"""Tree-LSTM units: Child-Sum and N-ary (Tai et al., 2015)."""
from kusari.autograd.functions.activation import tree_lstm
from kusari.autograd.functions.activation.sigmoid import sigmoid
from kusari.autograd.functions.activation.tanh import tanh
from kusari.autograd.functions.array.concat import concat
from kusari.autograd.functions.array.split_axis import split_axis
from kusari.links import link
from kusari.links.layers.connection import linear


def _zeros_for_none(link_, states, batch, dtype):
    """The states, zeros (``(batch, state_size)``) standing for None."""
    with link_.device:
        zeros = link_.xp.zeros((batch, link_.state_size), dtype)
    return tuple(zeros if s is None else s for s in states)


def _input_or_zeros(link_, cs, hs, x):
    """``x``, or zeros shaped after the first given state if x is None."""
    if x is not None:
        return x
    given = [s for s in cs + hs if s is not None]
    if not given:
        raise ValueError(f'{link_._describe()}: all inputs (cs, hs, x) are '
                         f'None')
    with link_.device:
        return link_.xp.zeros((given[0].shape[0], link_.in_size),
                              given[0].dtype)


class ChildSumTreeLSTM(link.Chain):
    """Child-Sum Tree-LSTM unit: merges any number of children, the input
    and output gates seeing the sum of the children's outputs and each
    child having its own forget gate.

    Args:
        in_size (int): Input size.
        out_size (int): Output (and cell state) size N.

    Attributes:
        W_x (Linear): Input to the a, i, o, f pre-activations (4 N).
        W_h_aio (Linear): Sum of children's outputs to a, i, o (3 N).
        W_h_f (Linear): A child's output to its forget gate (N).
    """

    def __init__(self, in_size, out_size):
        super().__init__()
        self.in_size = in_size
        self.state_size = out_size
        with self.init_scope():
            self.W_x = linear.Linear(in_size, 4 * out_size)
            self.W_h_aio = linear.Linear(out_size, 3 * out_size, nobias=True)
            self.W_h_f = linear.Linear(out_size, out_size, nobias=True)

    def forward(self, *cshsx):
        """``forward(c_1, ..., c_n, h_1, ..., h_n, x)``: the children's
        cell states and outputs (None for a missing child: zeros) and the
        input (None: zeros); returns ``(c, h)``. A leaf (``n = 0``, ``x``
        alone) has ``c = sigmoid(i) tanh(a)``, as in Chainer."""
        if len(cshsx) % 2 == 0:
            raise TypeError(
                f'{self._describe()}: expected c_1..c_n, h_1..h_n, x with '
                f'n >= 0; got {len(cshsx)} arguments')
        n = len(cshsx) // 2
        cs, hs = cshsx[:n], cshsx[n:-1]
        x = _input_or_zeros(self, cs, hs, cshsx[-1])
        x_aio, x_f = split_axis(self.W_x(x), [3 * self.state_size], axis=1)
        if n == 0:
            a, i, o = split_axis(x_aio, 3, axis=1)
            c = sigmoid(i) * tanh(a)
            return c, sigmoid(o) * tanh(c)
        cs = _zeros_for_none(self, cs, x.shape[0], x.dtype)
        hs = _zeros_for_none(self, hs, x.shape[0], x.dtype)
        aio = self.W_h_aio(sum(hs[1:], hs[0])) + x_aio
        forgets = split_axis(self.W_h_f(concat(hs, axis=0)), n, axis=0)
        f = concat(forgets, axis=1) + concat([x_f] * n, axis=1)
        return tree_lstm.tree_lstm(*cs, concat([aio, f], axis=1))


class NaryTreeLSTM(link.Chain):
    """N-ary Tree-LSTM unit: merges exactly ``n_ary`` ordered children,
    each with its own weights ``W_h1 .. W_hN`` on all gates.

    Args:
        in_size (int): Input size.
        out_size (int): Output (and cell state) size.
        n_ary (int): The number of children.
    """

    def __init__(self, in_size, out_size, n_ary=2):
        if n_ary < 1:
            raise ValueError(f'NaryTreeLSTM: n_ary must be at least 1, got '
                             f'{n_ary}')
        super().__init__()
        self.in_size = in_size
        self.state_size = out_size
        self.n_ary = n_ary
        gates = (3 + n_ary) * out_size
        with self.init_scope():
            self.W_x = linear.Linear(in_size, gates)
            for k in range(1, n_ary + 1):
                setattr(self, f'W_h{k}',
                        linear.Linear(out_size, gates, nobias=True))

    def forward(self, *cshsx):
        """``forward(c_1, ..., c_N, h_1, ..., h_N, x)`` with N = n_ary;
        None stands for zeros; returns ``(c, h)``."""
        if len(cshsx) != 2 * self.n_ary + 1:
            raise TypeError(
                f'{self._describe()}: expected {2 * self.n_ary + 1} '
                f'arguments (c_1..c_{self.n_ary}, h_1..h_{self.n_ary}, x); '
                f'got {len(cshsx)}')
        cs, hs = cshsx[:self.n_ary], cshsx[self.n_ary:-1]
        x = _input_or_zeros(self, cs, hs, cshsx[-1])
        gates = self.W_x(x)
        for k, h in enumerate(hs, start=1):
            if h is not None:
                gates += self[f'W_h{k}'](h)
        cs = _zeros_for_none(self, cs, x.shape[0], x.dtype)
        return tree_lstm.tree_lstm(*cs, gates)
