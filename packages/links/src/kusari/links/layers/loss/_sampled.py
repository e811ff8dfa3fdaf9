"""What the sampled-softmax losses share: a word embedding ``W`` and a
Walker alias sampler of the vocabulary, moved with the link."""
import numpy

from kusari.autograd.utils import walker_alias
from kusari.links import link
from kusari.links.layers.connection import _layer


class SampledLoss(link.Link):
    """A loss over a vocabulary of ``len(probs)`` words with embeddings
    ``W`` ``(vocabulary, in_size)`` and a sampler drawing words with
    probabilities proportional to ``probs``."""

    def __init__(self, in_size, probs, sample_size, initialW):
        name = type(self).__name__
        in_size = _layer.positive_int(name, 'in_size', in_size)
        self.sample_size = _layer.positive_int(name, 'sample_size',
                                               sample_size)
        super().__init__()
        probs = numpy.asarray(probs, numpy.float64)
        self.sampler = walker_alias.WalkerAlias(probs)
        with self.init_scope():
            self.W = _layer.parameter(initialW, (len(probs), in_size))

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.sampler.device_resident_accept(visitor)
