"""Kusari training."""

from kusari.training import optimizer_hooks  # NOQA
from kusari.training import optimizers  # NOQA
from kusari.training.optimizer import GradientMethod  # NOQA
from kusari.training.optimizer import Hyperparameter  # NOQA
from kusari.training.optimizer import HyperparameterProxy  # NOQA
from kusari.training.optimizer import Optimizer  # NOQA
from kusari.training.optimizer import UpdateRule  # NOQA

__version__ = '0.1.0'
