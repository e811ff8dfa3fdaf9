"""Parametric ReLU layer."""
from kusari.autograd.functions.activation import prelu
from kusari.links import link
from kusari.links.layers.connection import _layer


class PReLU(link.Link):
    """Parametric ReLU as a link: ``y = max(x, W x)`` with a learnt slope
    ``W`` (see :func:`~kusari.autograd.functions.prelu`).

    Args:
        shape (tuple of ints): The shape of ``W``: the axes of x after the
            batch axis that get their own slope; ``()`` shares one.
        init: Initializer of ``W`` (0.25).
    """

    def __init__(self, shape=(), init=0.25):
        super().__init__()
        with self.init_scope():
            self.W = _layer.parameter(init, shape)

    def forward(self, x):
        """Apply the activation to ``x``."""
        return prelu.prelu(x, self.W)
