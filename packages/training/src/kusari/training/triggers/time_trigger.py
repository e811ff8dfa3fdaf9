"""Firing at fixed intervals of wall-clock time."""
from kusari.training.triggers import _progress


class TimeTrigger:
    """Trigger that fires every ``period`` seconds of training.

    Time is the trainer's :attr:`~Trainer.elapsed_time`, which a snapshot
    keeps, so a resumed run goes on counting from where it stopped.

    Args:
        period (float): Interval in seconds.
    """

    def __init__(self, period):
        _progress.check_period('TimeTrigger', 'period', period)
        self.period = float(period)
        self._next_time = self.period

    def __call__(self, trainer):
        if self._next_time < trainer.elapsed_time:
            self._next_time += self.period
            return True
        return False

    def serialize(self, serializer):
        """Save or load when the next firing is due."""
        self._next_time = float(serializer('next_time', self._next_time))
