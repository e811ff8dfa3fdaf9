"""Firing at given points of training."""
import numbers

from kusari.training.triggers import _progress


class ManualScheduleTrigger:
    """Trigger that fires when training passes each of the given points.

    Args:
        points (int, float or list of them): Iterations or epochs at which
            to fire.
        unit (str): ``'epoch'`` or ``'iteration'``.

    Attributes:
        finished (bool): True once the last point is passed; an extension
            with a finished trigger is not initialized again on resume.
    """

    def __init__(self, points, unit):
        _progress.check_unit('ManualScheduleTrigger', unit)
        if isinstance(points, numbers.Real):
            points = [points]
        points = list(points)
        if not points or not all(isinstance(p, numbers.Real)
                                 for p in points):
            raise ValueError(f'ManualScheduleTrigger: points must be a '
                             f'number or a non-empty list of numbers, got '
                             f'{points!r}')
        self.points = points
        self.unit = unit
        self.finished = False
        self._tracker = _progress.ProgressTracker(unit)

    def __call__(self, trainer):
        """Whether a point was passed by the last update."""
        previous, now = self._tracker.step(trainer.updater)
        self.finished = now >= max(self.points)
        return any(previous < point <= now for point in self.points)

    def get_training_length(self):
        """``(last point, unit)``."""
        return max(self.points), self.unit

    def serialize(self, serializer):
        """Save or load the progress seen at the last call."""
        self._tracker.serialize(serializer)
        try:
            self.finished = bool(serializer('finished', self.finished))
        except KeyError:
            # A snapshot without this trigger's state (the tracker warned):
            # the next call tells from the progress whether it is finished.
            self.finished = False
