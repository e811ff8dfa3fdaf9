"""Optimizer hooks (``chainer.optimizer_hooks``): gradient manipulations
run before (or after) the update."""
from kusari.training.optimizer_hooks.gradient_clipping import \
    GradientClipping  # NOQA
from kusari.training.optimizer_hooks.gradient_hard_clipping import \
    GradientHardClipping  # NOQA
from kusari.training.optimizer_hooks.gradient_lars import GradientLARS  # NOQA
from kusari.training.optimizer_hooks.gradient_noise import \
    GradientNoise  # NOQA
from kusari.training.optimizer_hooks.lasso import Lasso  # NOQA
from kusari.training.optimizer_hooks.weight_decay import WeightDecay  # NOQA
