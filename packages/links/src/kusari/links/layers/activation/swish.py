"""Swish activation layer."""
from kusari.autograd.functions.activation import swish
from kusari.links import link
from kusari.links.layers.connection import _layer


class Swish(link.Link):
    """Swish as a link: ``y = x sigmoid(beta x)`` with a learnt ``beta``
    (see :func:`~kusari.autograd.functions.swish`).

    Args:
        beta_shape (tuple of ints or None): The shape of ``beta``, the
            leading axes of x after the batch axis; None takes all of
            them from the first input.
        beta_init: Initializer of ``beta`` (1.0).
    """

    def __init__(self, beta_shape, beta_init=1.0):
        super().__init__()
        with self.init_scope():
            self.beta = _layer.parameter(beta_init, beta_shape)

    def forward(self, x):
        """Apply the activation to ``x``."""
        if self.beta.array is None:
            self.beta.initialize(x.shape[1:])
        return swish.swish(x, self.beta)
