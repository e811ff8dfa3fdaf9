"""Turning what users pass as a trigger into a trigger object."""
from kusari.training.triggers import interval_trigger


def _never_fire_trigger(trainer):
    return False


def get_trigger(trigger):
    """Return a trigger object for ``trigger``.

    Args:
        trigger: A callable taking the trainer (returned as it is), a
            ``(period, unit)`` pair (made an :class:`IntervalTrigger`), or
            None (a trigger that never fires).
    """
    if callable(trigger):
        return trigger
    if trigger is None:
        return _never_fire_trigger
    if not isinstance(trigger, (tuple, list)) or len(trigger) != 2:
        raise TypeError(
            f"get_trigger: expected a callable, None or a (period, unit) "
            f"pair such as (1, 'epoch'), got {trigger!r}")
    return interval_trigger.IntervalTrigger(*trigger)
