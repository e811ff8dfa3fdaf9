"""Firing when a reported value reaches its best so far."""
from kusari.links import reporter
from kusari.training import trigger as trigger_module


class _ValueMonitor:
    """The mean of an observed value over each interval of a trigger."""

    def __init__(self, owner, key, trigger):
        self._owner = owner
        self.key = key
        self.interval_trigger = trigger_module.get_trigger(trigger)
        self.summary = reporter.DictSummary()

    def observe(self, trainer):
        """Add this iteration's value; return the interval's mean when an
        interval ends, else None."""
        observation = trainer.observation
        if self.key in observation:
            self.summary.add({self.key: observation[self.key]})
        if not self.interval_trigger(trainer):
            return None
        means = self.summary.compute_mean()
        if self.key not in means:
            raise KeyError(
                f'{self._owner}: the key {self.key!r} was not reported in '
                f'this interval (the observation has '
                f'{sorted(observation)})')
        self.summary = reporter.DictSummary()
        return float(means[self.key])

    def serialize(self, serializer):
        if hasattr(self.interval_trigger, 'serialize'):
            self.interval_trigger.serialize(serializer['interval_trigger'])
        self.summary.serialize(serializer['summary'])


class BestValueTrigger:
    """Trigger that fires when the mean of a value over an interval is the
    best seen so far.

    Args:
        key (str): Key of the observed value (e.g. ``'validation/main/loss'``).
        compare (callable): ``compare(best, new)`` returns True when ``new``
            is better than ``best``.
        trigger: When to compare: a ``(period, unit)`` pair or a trigger.
    """

    def __init__(self, key, compare, trigger=(1, 'epoch')):
        if not callable(compare):
            raise TypeError(f'BestValueTrigger: compare must be callable, '
                            f'got {type(compare).__name__}')
        self._compare = compare
        self._best_value = None
        self._monitor = _ValueMonitor(type(self).__name__, key, trigger)

    def __call__(self, trainer):
        value = self._monitor.observe(trainer)
        if value is None:
            return False
        if self._best_value is None or self._compare(self._best_value,
                                                     value):
            self._best_value = value
            return True
        return False

    def serialize(self, serializer):
        """Save or load the interval trigger, the running mean and the best
        value."""
        self._monitor.serialize(serializer)
        best = serializer('best_value', self._best_value)
        self._best_value = None if best is None else float(best)


class MaxValueTrigger(BestValueTrigger):
    """Trigger that fires when a value reaches a new maximum.

    Args:
        key (str): Key of the observed value.
        trigger: When to compare (default every epoch).
    """

    def __init__(self, key, trigger=(1, 'epoch')):
        super().__init__(key, lambda best, new: new > best, trigger)


class MinValueTrigger(BestValueTrigger):
    """Trigger that fires when a value reaches a new minimum.

    Args:
        key (str): Key of the observed value.
        trigger: When to compare (default every epoch).
    """

    def __init__(self, key, trigger=(1, 'epoch')):
        super().__init__(key, lambda best, new: new < best, trigger)
