"""Updaters: one training step per call, on one or several devices."""
from kusari.training.updaters.multiprocess_parallel_updater import (  # NOQA
    MultiprocessParallelUpdater)
from kusari.training.updaters.parallel_updater import ParallelUpdater  # NOQA
from kusari.training.updaters.standard_updater import (  # NOQA
    StandardUpdater)
