"""Fully-connected maxout layer."""

from kusari.array import backend
from kusari.autograd.functions.activation import maxout
from kusari.links import link
from kusari.links.layers.connection import linear


def _flattened(name, value, shape):
    """An array initializer of ``shape`` reshaped for the inner Linear;
    anything else unchanged."""
    if not backend.is_array_supported(value):
        return value
    if value.shape != shape:
        raise ValueError(f'Maxout: {name} must have shape {shape}; got '
                         f'{value.shape}')
    return value.reshape((shape[0] * shape[1],) + shape[2:])


class Maxout(link.Chain):
    """Fully-connected maxout layer (Goodfellow et al., 2013): a linear
    layer of ``out_size * pool_size`` outputs, maximized over each pool
    (see :func:`~kusari.autograd.functions.maxout`).

    Args:
        in_size (int or None): Input size.
        out_size (int): Output size.
        pool_size (int): Number of linear pieces per output.
        initialW: Initializer of the weight; an array has shape
            ``(out_size, pool_size, in_size)``.
        initial_bias: Initializer of the bias (zero); an array has shape
            ``(out_size, pool_size)``; None leaves the bias out.

    Attributes:
        linear (Linear): The inner linear layer.
    """

    def __init__(self, in_size, out_size, pool_size, initialW=None,
                 initial_bias=0):
        super().__init__()
        self.out_size = out_size
        self.pool_size = pool_size
        initialW = _flattened('initialW', initialW,
                              (out_size, pool_size, in_size))
        initial_bias = _flattened('initial_bias', initial_bias,
                                  (out_size, pool_size))
        with self.init_scope():
            self.linear = linear.Linear(
                in_size, out_size * pool_size, nobias=initial_bias is None,
                initialW=initialW, initial_bias=initial_bias)

    def forward(self, x):
        """Apply the layer to ``x`` ``(B, in_size)``."""
        return maxout.maxout(self.linear(x), self.pool_size)
