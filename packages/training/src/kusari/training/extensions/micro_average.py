"""The ratio of two summed values (micro-average)."""
from kusari.autograd import variable
from kusari.training import _serialization
from kusari.training import extension
from kusari.training import trigger as trigger_module


class MicroAverage(extension.Extension):
    """Trainer extension that reports ``sum(numerator) /
    sum(denominator)`` over each interval of ``trigger``.

    With per-batch counts of correct answers and of examples, this is the
    accuracy over all examples, unlike the mean of per-batch accuracies.

    Args:
        numerator_key (str): Key of the reported numerators.
        denominator_key (str): Key of the reported denominators.
        result_key (str): Key under which the ratio is reported.
        trigger: When to report the ratio and start new sums.
    """

    priority = extension.PRIORITY_EDITOR

    def __init__(self, numerator_key, denominator_key, result_key,
                 trigger=(1, 'epoch')):
        self._numerator_key = numerator_key
        self._denominator_key = denominator_key
        self._result_key = result_key
        self._trigger = trigger_module.get_trigger(trigger)
        self._numerator = 0
        self._denominator = 0

    def __call__(self, trainer):
        observation = trainer.observation
        if not (self._numerator_key in observation
                and self._denominator_key in observation):
            return
        self._numerator += variable.as_array(
            observation[self._numerator_key])
        self._denominator += variable.as_array(
            observation[self._denominator_key])
        if self._trigger(trainer):
            observation[self._result_key] = (
                self._numerator / self._denominator)
            self._numerator = 0
            self._denominator = 0

    def serialize(self, serializer):
        """Save or load the trigger and the running sums."""
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        self._numerator = _serialization.serialize_value(
            serializer, '_numerator', self._numerator)
        self._denominator = _serialization.serialize_value(
            serializer, '_denominator', self._denominator)
