"""Embedding layer: rows of a learnt matrix selected by ids."""
from kusari.array import initializers
from kusari.autograd import variable
from kusari.autograd.functions.connection import embed_id
from kusari.links import link
from kusari.links.layers.connection import _layer


class EmbedID(link.Link):
    """Embedding layer: a linear layer for one-hot inputs given as ids
    (see :func:`~kusari.autograd.functions.embed_id`).

    Args:
        in_size (int): Vocabulary size: the ids are in ``[0, in_size)``.
        out_size (int): Size of each embedding.
        initialW: Initializer of ``W`` ``(in_size, out_size)``; None is a
            standard normal distribution.
        ignore_label (int or None): An id mapped to zero vectors.
    """

    ignore_label = None

    def __init__(self, in_size, out_size, initialW=None, ignore_label=None):
        shape = (_layer.positive_int('EmbedID', 'in_size', in_size),
                 _layer.positive_int('EmbedID', 'out_size', out_size))
        if initialW is None:
            initialW = initializers.Normal(1.0)
        super().__init__()
        self.ignore_label = ignore_label
        with self.init_scope():
            self.W = _layer.parameter(initialW, shape)

    @classmethod
    def from_params(cls, W, ignore_label=None):
        """An EmbedID whose ``W`` starts as a copy of the given array (or
        Variable)."""
        W = variable.as_array(W)
        return cls(*W.shape, initialW=W, ignore_label=ignore_label)

    def forward(self, x):
        """The embeddings of the ids ``x`` (any shape): ``x.shape +
        (out_size,)``."""
        return embed_id.embed_id(x, self.W, self.ignore_label)
