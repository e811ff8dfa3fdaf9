"""Link hooks shipped with Kusari (``chainer.link_hooks``).

TimerHook is used globally for the current thread (``with TimerHook() as
h:``) or on one link (``link.add_hook(h)``); the weight hooks on one link.
"""
from kusari.links.link_hooks.spectral_normalization import SpectralNormalization  # NOQA
from kusari.links.link_hooks.timer import TimerHook  # NOQA
from kusari.links.link_hooks.weight_standardization import WeightStandardization  # NOQA
