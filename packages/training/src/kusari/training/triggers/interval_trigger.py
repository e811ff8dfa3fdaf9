"""Firing every ``period`` epochs or iterations."""
import math

from kusari.training.triggers import _progress


class IntervalTrigger:
    """Trigger that fires every ``period`` units of training.

    It fires when the number of whole periods done changes between two
    calls: at iterations ``period, 2 * period, ...``, or when the epoch
    detail crosses a multiple of ``period`` (which may be fractional).

    Args:
        period (int or float): Length of the interval.
        unit (str): ``'epoch'`` or ``'iteration'``.
    """

    def __init__(self, period, unit):
        _progress.check_unit('IntervalTrigger', unit)
        _progress.check_period('IntervalTrigger', 'period', period)
        self.period = period
        self.unit = unit
        self._tracker = _progress.ProgressTracker(unit)

    def __call__(self, trainer):
        """Whether an interval ended with the last update."""
        previous, now = self._tracker.step(trainer.updater)
        return (math.floor(previous / self.period)
                != math.floor(now / self.period))

    def get_training_length(self):
        """``(period, unit)``: how long a training this trigger stops."""
        return self.period, self.unit

    def serialize(self, serializer):
        """Save or load the progress seen at the last call."""
        self._tracker.serialize(serializer)

    def __repr__(self):
        return f'IntervalTrigger({self.period!r}, {self.unit!r})'
