"""How far training has gone, in one of the two units triggers count in.
"""
import math
import numbers
import warnings

UNITS = ('epoch', 'iteration')


def check_unit(caller, unit):
    """Raise ValueError unless ``unit`` is ``'epoch'`` or ``'iteration'``.
    """
    if unit not in UNITS:
        raise ValueError(f"{caller}: unit must be 'epoch' or 'iteration', "
                         f'got {unit!r}')


def check_period(caller, name, period):
    """Raise unless ``period`` is a positive finite number."""
    if not isinstance(period, numbers.Real) or isinstance(period, bool) \
            or not math.isfinite(period) or period <= 0:
        raise ValueError(f'{caller}: {name} must be a positive number, got '
                         f'{period!r}')


def current(updater, unit):
    """The updater's progress: ``epoch_detail`` or ``iteration``."""
    return updater.epoch_detail if unit == 'epoch' else updater.iteration


def before_last_update(updater, unit):
    """The progress before the updater's last update (0 before the first
    one)."""
    if unit == 'epoch':
        previous = getattr(updater, 'previous_epoch_detail', None)
        return 0. if previous is None else previous
    return max(updater.iteration - 1, 0)


class ProgressTracker:
    """Remembers the progress seen at the previous call of a trigger, so
    that a trigger fires once for each crossing even when it is not asked
    every iteration. Before the first call that progress is the start of
    training, as in Chainer: a first call at iteration 5 sees every point
    passed since iteration 0. The memory is saved with :meth:`serialize`,
    which is what makes a resumed run fire as an uninterrupted one."""

    def __init__(self, unit):
        self.unit = unit
        # {unit: progress} at the previous call; None where a snapshot
        # lacked it, and the last update is taken as the previous call.
        self._previous = {'iteration': 0, 'epoch': 0.}

    def step(self, updater):
        """Return ``(previous, current)`` progress and remember current."""
        if self._previous is None:
            previous = before_last_update(updater, self.unit)
        else:
            previous = self._previous[self.unit]
        self._previous = {
            'iteration': updater.iteration,
            'epoch': float(getattr(updater, 'epoch_detail', 0.))}
        return previous, current(updater, self.unit)

    def serialize(self, serializer):
        # Chainer's keys; -1 stands for "unknown", which Chainer reads the
        # same way.
        previous = self._previous or {'iteration': -1, 'epoch': -1.}
        try:
            iteration = int(serializer('previous_iteration',
                                       previous['iteration']))
            epoch = float(serializer('previous_epoch_detail',
                                     previous['epoch']))
        except KeyError:
            # A snapshot from before this trigger existed (an extension
            # added since): as Chainer, warn and take the last update as
            # the previous call, exact where the trigger is asked at every
            # iteration (as the trainer asks it).
            warnings.warn(
                'the snapshot holds no state of this trigger; it guesses '
                'that it was last called one iteration ago', stacklevel=2)
            self._previous = None
            return
        self._previous = None if iteration < 0 or epoch < 0 else {
            'iteration': iteration, 'epoch': epoch}
