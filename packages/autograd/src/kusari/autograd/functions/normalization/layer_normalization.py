"""Layer normalization."""
from kusari.autograd.functions.normalization import _standardization
from kusari.autograd.utils import type_check


class LayerNormalization(_standardization.Standardization):
    """Standardization of each row of a matrix over its units."""

    def __init__(self, eps):
        super().__init__((1,), (1,), eps)

    def check_type_forward(self, in_types):
        super().check_type_forward(in_types)
        type_check.expect(in_types[0].ndim == 2)


def layer_normalization(x, gamma, beta, eps=1e-5):
    """Layer normalization (Ba et al., 2016).

    Standardizes each sample over its units and applies a per-unit scale
    and shift: :math:`y_{ij} = \\gamma_j (x_{ij} - \\mu_i) /
    \\sqrt{\\sigma_i^2 + \\epsilon} + \\beta_j`, with :math:`\\mu_i`,
    :math:`\\sigma_i^2` the mean and biased variance of row i.

    Args:
        x: Variable or array, float, of shape ``(batch_size, unit_size)``.
        gamma, beta: Variables or arrays of shape ``(unit_size,)``.
        eps (float): added to the variance, for stability.

    Returns:
        Variable of x's shape and dtype.
    """
    y, = LayerNormalization(eps).apply((x, gamma, beta))
    return y
