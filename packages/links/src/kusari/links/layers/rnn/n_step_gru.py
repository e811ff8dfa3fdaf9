"""Stacked (bi)directional GRU layers over lists of sequences."""
from kusari.autograd.functions.connection import n_step_gru
from kusari.links.layers.rnn import n_step_rnn


class NStepGRUBase(n_step_rnn.NStepRNNBase):
    """A stacked GRU: six weights per layer and direction (r, z and the
    candidate, on the input and on the hidden state)."""

    n_weights = 6

    def rnn(self, *args):
        fn = n_step_gru.n_step_bigru if self.use_bi_direction \
            else n_step_gru.n_step_gru
        return fn(*args)


class NStepGRU(NStepGRUBase):
    """Stacked unidirectional GRU over sequences (see
    :func:`~kusari.autograd.functions.n_step_gru`; arguments as in
    :class:`~kusari.links.layers.rnn.n_step_rnn.NStepRNNBase`)."""


class NStepBiGRU(NStepGRUBase):
    """Stacked bidirectional GRU over sequences (see
    :func:`~kusari.autograd.functions.n_step_bigru`; arguments as in
    :class:`~kusari.links.layers.rnn.n_step_rnn.NStepRNNBase`)."""

    use_bi_direction = True
