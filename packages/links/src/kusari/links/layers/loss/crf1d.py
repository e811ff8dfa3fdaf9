"""Linear-chain conditional random field loss layer."""
from kusari.array import initializers
from kusari.autograd.functions.array.permutate import permutate
from kusari.autograd.functions.array.transpose_sequence import \
    transpose_sequence
from kusari.autograd.functions.loss import crf1d
from kusari.links import link
from kusari.links.layers.connection import _layer
from kusari.links.layers.rnn import n_step_rnn


class CRF1d(link.Link):
    """Linear-chain conditional random field loss layer, learning the
    transition scores ``cost`` between labels (see
    :func:`~kusari.autograd.functions.crf1d`).

    Args:
        n_label (int): The number of labels K.
        initial_cost: Initializer of ``cost`` ``(K, K)``; None is zero.
    """

    def __init__(self, n_label, initial_cost=None):
        n_label = _layer.positive_int('CRF1d', 'n_label', n_label)
        super().__init__()
        if initial_cost is None:
            initial_cost = initializers.Zero()
        with self.init_scope():
            self.cost = _layer.parameter(initial_cost, (n_label, n_label))

    def _time_major(self, sequences):
        """Batch-major sequences (any order of lengths) as time-major
        steps, longest first, and the order used."""
        order = n_step_rnn.argsort_list_descent(sequences)
        steps = transpose_sequence(
            n_step_rnn.permutate_list(sequences, order, inv=False))
        with self.device:
            return steps, self.xp.asarray(order)

    def forward(self, xs, ys, reduce='mean', transpose=False):
        """The negative log-likelihood of the label sequences.

        Args:
            xs: Emission scores: a list of steps ``(B_l, K)``, batch sizes
                not growing; with ``transpose``, a list of sequences
                ``(L_i, K)`` in any order.
            ys: The labels, laid out as ``xs``.
            reduce (str): ``'mean'`` or ``'no'`` (one value per sequence,
                in the order of the sequences).
            transpose (bool): Whether ``xs`` and ``ys`` are sequences.
        """
        if not transpose:
            return crf1d.crf1d(self.cost, xs, ys, reduce)
        xs, order = self._time_major(xs)
        ys, _ = self._time_major(ys)
        loss = crf1d.crf1d(self.cost, xs, [y.array for y in ys], reduce)
        return loss if reduce == 'mean' else permutate(loss, order, inv=True)

    def argmax(self, xs, transpose=False):
        """The best label sequences and their scores (Viterbi).

        Returns:
            tuple: the scores ``(B,)`` and the paths: a list of steps, or
            with ``transpose`` a list of label sequences in the order of
            ``xs``.
        """
        if not transpose:
            return crf1d.argmax_crf1d(self.cost, xs)
        steps, order = self._time_major(xs)
        score, path = crf1d.argmax_crf1d(self.cost, steps)
        sequences = [p.array for p in transpose_sequence(path)]
        return (permutate(score, order, inv=True),
                n_step_rnn.permutate_list(sequences, order, inv=True))
