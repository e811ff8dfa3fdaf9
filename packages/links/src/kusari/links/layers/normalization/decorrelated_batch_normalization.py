"""Decorrelated batch normalization layer."""
import numpy

from kusari.array import configuration
from kusari.autograd.functions.normalization import \
    decorrelated_batch_normalization as dbn
from kusari.links import link
from kusari.links.layers.connection import _layer
from kusari.links.layers.normalization import batch_normalization as bn_link


class DecorrelatedBatchNormalization(link.Link):
    """Decorrelated batch normalization layer (Huang et al., 2018): the
    channels, in ``groups`` groups, are whitened with the batch statistics
    in training (updating the running mean and projection), with the
    running ones otherwise (see
    :func:`~kusari.autograd.functions.decorrelated_batch_normalization`).

    Args:
        size (int): The number of channels C.
        groups (int): The number of groups; it must divide C.
        decay (float): Decay of the running statistics.
        eps (float): Added to the diagonal of the covariances.
        dtype: dtype of the running statistics.

    Attributes:
        avg_mean (array): ``(groups, C // groups)``, persistent.
        avg_projection (array): ``(groups, C // groups, C // groups)``,
            starting as identities; persistent.
        N (int): Calls counted for fine-tuning: persistent.
    """

    def __init__(self, size, groups=16, decay=0.9, eps=2e-5,
                 dtype=numpy.float32):
        name = 'DecorrelatedBatchNormalization'
        size = _layer.positive_int(name, 'size', size)
        groups = _layer.positive_int(name, 'groups', groups)
        if size % groups:
            raise ValueError(f'{name}: groups={groups} does not divide '
                             f'size={size}')
        super().__init__()
        self.groups = groups
        self.decay = decay
        self.eps = eps
        channels = size // groups
        projection = numpy.zeros((groups, channels, channels), dtype)
        projection[:] = numpy.eye(channels, dtype=dtype)
        self.add_persistent('avg_mean',
                            numpy.zeros((groups, channels), dtype))
        self.add_persistent('avg_projection', projection)
        self.add_persistent('N', 0)

    def forward(self, x, **kwargs):
        """Whiten ``x`` ``(N, C, ...)``; ``finetune`` (keyword only) as in
        :class:`BatchNormalization`."""
        finetune = bn_link.parse_finetune(self._describe(), kwargs)
        if not configuration.config.train:
            return dbn.fixed_decorrelated_batch_normalization(
                x, self.avg_mean, self.avg_projection, groups=self.groups)
        if configuration.config.in_recomputing:
            decay, mean, projection = self.decay, None, None
        else:
            decay = bn_link.running_decay(self, finetune)
            mean, projection = self.avg_mean, self.avg_projection
        return dbn.decorrelated_batch_normalization(
            x, groups=self.groups, eps=self.eps, running_mean=mean,
            running_projection=projection, decay=decay)

    def start_finetuning(self):
        """Reset the count ``N`` of fine-tuning calls."""
        self.N = 0
