"""BlackOut loss layer."""
from kusari.autograd.functions.loss import black_out
from kusari.autograd.graph_optimizations.static_graph import static_code
from kusari.links.layers.loss import _sampled


@static_code
def _draw(sampler, shape):
    """Negative samples of ``shape``: drawn on every call of a static
    chain too, not only when it is recorded."""
    return sampler.sample(shape)


class BlackOut(_sampled.SampledLoss):
    """BlackOut loss layer (Ji et al., 2016): a softmax cross entropy
    approximated with ``sample_size`` negative words per example, drawn
    in proportion to ``counts`` (see
    :func:`~kusari.autograd.functions.black_out`).

    Args:
        in_size (int): Input size.
        counts (sequence of int): Word frequencies; the vocabulary size
            is ``len(counts)``.
        sample_size (int): Negative samples per example.

    Attributes:
        W (~kusari.autograd.Parameter): Word embeddings, LeCun normal.
        sample_data (array or None): If set, used as the samples instead
            of drawing (for tests).
    """

    sample_data = None

    def __init__(self, in_size, counts, sample_size):
        super().__init__(in_size, counts, sample_size, None)

    def forward(self, x, t):
        """The mean loss of ``x`` ``(B, in_size)`` for the words ``t``."""
        samples = self.sample_data
        if samples is None:
            samples = _draw(self.sampler, (x.shape[0], self.sample_size))
        return black_out.black_out(x, t, self.W, samples)
