"""Group normalization."""
import math

from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.normalization import _standardization
from kusari.autograd.utils import type_check


class GroupNormalization(_standardization.Standardization):
    """Standardization over each group of channels of each sample, on x
    reshaped to ``(N, groups, channels per group, spatial size)``."""

    def __init__(self, eps):
        super().__init__((2, 3), (1, 2), eps)


def _check_arguments(x, groups, gamma, beta):
    groups = _standardization.check_groups('group_normalization', x, groups)
    channels = x.shape[1]
    for name, param in (('gamma', gamma), ('beta', beta)):
        if param.shape != (channels,):
            raise ValueError(f'group_normalization: {name} must have shape '
                             f'({channels},), got {param.shape}')
    return groups


@type_check.checks_inputs
def group_normalization(x, groups, gamma, beta, eps=1e-5):
    """Group normalization (Wu and He, 2018).

    Splits the channels (axis 1) into ``groups`` groups, standardizes each
    group of each sample over its channels and spatial positions, and
    applies a per-channel scale and shift: :math:`y = \\gamma \\hat{x} +
    \\beta`.

    Args:
        x: Variable or array, float, of shape ``(N, C, ...)``.
        groups (int): the number of groups; it must divide C.
        gamma, beta: Variables or arrays of shape ``(C,)``.
        eps (float): added to the variances, for stability.

    Returns:
        Variable of x's shape and dtype.
    """
    groups = _check_arguments(x, groups, gamma, beta)
    n, channels = x.shape[:2]
    grouped = (groups, channels // groups)
    y, = GroupNormalization(eps).apply((
        reshape(x, (n,) + grouped + (math.prod(x.shape[2:]),)),
        reshape(gamma, grouped), reshape(beta, grouped)))
    return reshape(y, x.shape)
