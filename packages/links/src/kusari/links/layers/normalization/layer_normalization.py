"""Layer normalization layer, and the learned scale and shift it shares
with GroupNormalization."""
from kusari.autograd.functions.normalization import layer_normalization
from kusari.autograd.variable import Parameter
from kusari.links import link
from kusari.links.layers.connection import _layer
from kusari.links.layers.normalization import batch_normalization


class _ScaleShift(link.Link):
    """Base of the normalization layers followed by a learned per-channel
    scale ``gamma`` (initially one) and shift ``beta`` (zero) of ``size``
    entries; with ``size`` None they are shaped at the first input.
    ``dtype`` fixes their dtype now (None: the configured dtype when they
    are shaped)."""

    def __init__(self, size, eps, initial_gamma, initial_beta, dtype=None):
        size = _layer.positive_int(type(self).__name__, 'size', size,
                                   allow_none=True)
        super().__init__()
        self.eps = eps
        with self.init_scope():
            self.gamma = Parameter(batch_normalization.typed_initializer(
                initial_gamma, 1, dtype), size)
            self.beta = Parameter(batch_normalization.typed_initializer(
                initial_beta, 0, dtype), size)

    def _initialize_params(self, shape):
        self.gamma.initialize(shape)
        self.beta.initialize(shape)


class LayerNormalization(_ScaleShift):
    """Layer normalization layer on outputs of linear functions (Ba et
    al., 2016): each row of ``x`` ``(N, size)`` is standardized, then
    scaled and shifted per feature (see
    :func:`~kusari.autograd.functions.layer_normalization`).

    Args:
        size (int or None): The number of features; None infers it.
        eps (float): Added to the variance, for stability.
        initial_gamma, initial_beta: Initializers of gamma (default one)
            and beta (default zero).
    """

    def __init__(self, size=None, eps=1e-6, initial_gamma=None,
                 initial_beta=None):
        super().__init__(size, eps, initial_gamma, initial_beta)

    def forward(self, x):
        """Normalize the rows of ``x`` ``(N, size)``."""
        if self.gamma.array is None:
            _layer.expect_ndim(self, x, 2, '(batch, features)')
            self._initialize_params(x.shape[1:])
        return layer_normalization.layer_normalization(
            x, self.gamma, self.beta, self.eps)
