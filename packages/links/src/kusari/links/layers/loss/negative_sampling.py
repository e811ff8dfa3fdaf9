"""Negative sampling loss layer."""
import numpy

from kusari.array import initializers
from kusari.autograd.functions.loss import negative_sampling
from kusari.links.layers.loss import _sampled


class NegativeSampling(_sampled.SampledLoss):
    """Negative sampling loss layer (Mikolov et al., 2013): ``sample_size``
    negative words per example, drawn in proportion to ``counts **
    power`` (see :func:`~kusari.autograd.functions.negative_sampling`).

    Args:
        in_size (int): Input size.
        counts (sequence of int): Word frequencies; the vocabulary size
            is ``len(counts)``.
        sample_size (int): Negative samples per example.
        power (float): The power flattening the word distribution.
        dtype: dtype of ``W`` (None: the configured dtype).

    Attributes:
        W (~kusari.autograd.Parameter): Word embeddings, starting at zero.
    """

    def __init__(self, in_size, counts, sample_size, power=0.75,
                 dtype=None):
        probs = numpy.power(numpy.asarray(counts, numpy.float64), power)
        super().__init__(in_size, probs, sample_size,
                         initializers.Zero(dtype))
        self.power = power

    def forward(self, x, t, reduce='sum', **kwargs):
        """The loss of ``x`` ``(B, in_size)`` for the words ``t``.

        Args:
            reduce (str): ``'sum'`` or ``'no'`` (one value per example).
            return_samples (bool): keyword only; also return the words
                used, ``t`` in the first column.
        """
        return negative_sampling.negative_sampling(
            x, t, self.W, self.sampler.sample, self.sample_size,
            reduce=reduce, **kwargs)
