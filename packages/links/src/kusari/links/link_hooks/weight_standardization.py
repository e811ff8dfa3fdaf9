"""Weight standardization: zero mean, unit variance per output channel.

Qiao et al., Micro-Batch Training with Batch-Channel Normalization and
Weight Standardization (2019).
"""
from kusari.autograd import functions as F
from kusari.links.link_hooks import _weight_hook


class WeightStandardization(_weight_hook.WeightHook):
    """Computes a link's forward with W standardized per output channel:
    ``(W - mean) / sqrt(var + eps)``, mean and variance over all axes but
    the first.

    Args:
        eps (float): added to the variance.
        weight_name (str): the parameter to standardize.
        name (str): the hook's name; ``'WeightStandardization'``.
    """

    name = 'WeightStandardization'

    def __init__(self, eps=1e-5, weight_name='W', name=None):
        super().__init__(weight_name, name)
        self.eps = eps

    def normalize_weight(self, link):
        """The standardized weight, differentiable in W."""
        weight = getattr(link, self.weight_name)
        rows = F.reshape(weight, (weight.shape[0], -1))
        centered = rows - F.broadcast_to(
            F.mean(rows, axis=1, keepdims=True), rows.shape)
        var = F.mean(F.square(centered), axis=1, keepdims=True)
        scaled = centered / F.broadcast_to(F.sqrt(var + self.eps),
                                           rows.shape)
        return F.reshape(scaled, weight.shape)
