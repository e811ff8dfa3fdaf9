"""Group normalization layer."""
import numpy

from kusari.array import configuration
from kusari.autograd.functions.normalization import group_normalization
from kusari.links.layers.normalization import layer_normalization


class GroupNormalization(layer_normalization._ScaleShift):
    """Group normalization layer on outputs of convolution functions (Wu
    and He, 2018): each example's channels are standardized in ``groups``
    groups, then scaled and shifted per channel (see
    :func:`~kusari.autograd.functions.group_normalization`).

    As in Chainer, gamma and beta take the configured dtype at
    construction (float32 for ``mixed16``), and ``groups`` is checked
    when the layer is called (TypeError unless an int, ValueError unless
    it divides the channels).

    Args:
        groups (int): The number of channel groups.
        size (int or None): The number of channels; None infers it.
        eps (float): Added to the variance, for stability.
        initial_gamma, initial_beta: Initializers of gamma (default one)
            and beta (default zero).
    """

    def __init__(self, groups, size=None, eps=1e-5, initial_gamma=None,
                 initial_beta=None):
        self.groups = groups
        super().__init__(size, eps, initial_gamma, initial_beta,
                         configuration.get_dtype(map_mixed16=numpy.float32))

    def forward(self, x):
        """Normalize ``x`` ``(N, C, ...)``, at least 2 axes (as in
        Chainer)."""
        if getattr(x, 'ndim', 0) < 2:
            raise ValueError(
                f'{self._describe()}: x must have at least 2 axes (batch, '
                f'channel, ...); got shape {getattr(x, "shape", None)}')
        if self.gamma.array is None:
            self._initialize_params(x.shape[1:2])
        return group_normalization.group_normalization(
            x, self.groups, self.gamma, self.beta, self.eps)
