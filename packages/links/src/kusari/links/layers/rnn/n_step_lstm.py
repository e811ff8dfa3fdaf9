"""Stacked (bi)directional LSTM layers over lists of sequences."""
from kusari.autograd.functions.connection import n_step_lstm
from kusari.links.layers.rnn import n_step_rnn


class NStepLSTMBase(n_step_rnn.NStepRNNBase):
    """A stacked LSTM: eight weights per layer and direction (gates i, f,
    a, o on the input, then on the hidden state) and two states."""

    n_weights = 8
    n_cells = 2

    def rnn(self, *args):
        fn = n_step_lstm.n_step_bilstm if self.use_bi_direction \
            else n_step_lstm.n_step_lstm
        return fn(*args)

    def forward(self, hx, cx, xs, **kwargs):
        """Run over ``xs``, a list of Variables ``(L_i, in_size)``, from
        the hidden and cell states ``hx``, ``cx`` ``(n_layers *
        directions, B, N)`` (None: zeros).

        Returns:
            tuple: ``(hy, cy, ys)``: the last states and the list of output
            sequences ``(L_i, N * directions)``.
        """
        return self._call([hx, cx], xs, **kwargs)


class NStepLSTM(NStepLSTMBase):
    """Stacked unidirectional LSTM over sequences (see
    :func:`~kusari.autograd.functions.n_step_lstm`; arguments as in
    :class:`~kusari.links.layers.rnn.n_step_rnn.NStepRNNBase`)."""


class NStepBiLSTM(NStepLSTMBase):
    """Stacked bidirectional LSTM over sequences (see
    :func:`~kusari.autograd.functions.n_step_bilstm`; arguments as in
    :class:`~kusari.links.layers.rnn.n_step_rnn.NStepRNNBase`)."""

    use_bi_direction = True
