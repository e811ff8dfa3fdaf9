"""Triggers: callables taking the trainer that say when to act."""
from kusari.training.triggers.early_stopping_trigger import (  # NOQA
    EarlyStoppingTrigger)
from kusari.training.triggers.interval_trigger import IntervalTrigger  # NOQA
from kusari.training.triggers.manual_schedule_trigger import (  # NOQA
    ManualScheduleTrigger)
from kusari.training.triggers.minmax_value_trigger import (  # NOQA
    BestValueTrigger, MaxValueTrigger, MinValueTrigger)
from kusari.training.triggers.once_trigger import OnceTrigger  # NOQA
from kusari.training.triggers.time_trigger import TimeTrigger  # NOQA
