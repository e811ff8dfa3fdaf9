"""Kusari training."""

from kusari.training import optimizer_hooks  # NOQA
from kusari.training import optimizers  # NOQA
from kusari.training.optimizer import GradientMethod  # NOQA
from kusari.training.update_rule import Hyperparameter  # NOQA
from kusari.training.update_rule import HyperparameterProxy  # NOQA
from kusari.training.optimizer import Optimizer  # NOQA
from kusari.training.update_rule import UpdateRule  # NOQA
from kusari.training import extensions  # NOQA
from kusari.training import triggers  # NOQA
from kusari.training import updaters  # NOQA
from kusari.training.extension import Extension  # NOQA
from kusari.training.extension import PRIORITY_EDITOR  # NOQA
from kusari.training.extension import PRIORITY_READER  # NOQA
from kusari.training.extension import PRIORITY_WRITER  # NOQA
from kusari.training.extension import make_extension  # NOQA
from kusari.training.trainer import Trainer  # NOQA
from kusari.training.trigger import get_trigger  # NOQA
from kusari.training.triggers import IntervalTrigger  # NOQA
from kusari.training.updater import Updater  # NOQA
from kusari.training.updaters import ParallelUpdater  # NOQA
from kusari.training.updaters import StandardUpdater  # NOQA

from kusari.array import parts as _parts

# __version__, read from the installed metadata when asked.
__getattr__ = _parts.module_getattr(__name__, 'kusari-training')
