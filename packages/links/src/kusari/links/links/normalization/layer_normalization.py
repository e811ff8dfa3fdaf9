"""Layer normalization layer."""
from kusari.autograd.functions.normalization import layer_normalization
from kusari.links import link
from kusari.links.links.connection import _layer


class LayerNormalization(link.Link):
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
        size = _layer.positive_int('LayerNormalization', 'size', size,
                                   allow_none=True)
        super().__init__()
        self.eps = eps
        with self.init_scope():
            self.gamma = _layer.parameter(
                1 if initial_gamma is None else initial_gamma, size)
            self.beta = _layer.parameter(
                0 if initial_beta is None else initial_beta, size)

    def forward(self, x):
        """Normalize the rows of ``x`` ``(N, size)``."""
        if self.gamma.array is None:
            _layer.expect_ndim(self, x, 2, '(batch, features)')
            self.gamma.initialize(x.shape[1:])
            self.beta.initialize(x.shape[1:])
        return layer_normalization.layer_normalization(
            x, self.gamma, self.beta, self.eps)
