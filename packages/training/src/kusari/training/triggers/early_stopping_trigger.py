"""Stopping training when a monitored value stops improving."""
import operator

from kusari.training import trigger as trigger_module
from kusari.training.triggers import minmax_value_trigger


class EarlyStoppingTrigger:
    """Stop trigger that fires when a value has not improved for
    ``patience`` checks in a row, or when ``max_trigger`` fires.

    Args:
        check_trigger: When to compare the monitored value (its mean over
            the interval) with the best so far.
        monitor (str): Key of the observed value.
        patience (int): Number of checks without improvement tolerated
            (default 3).
        mode (str): ``'max'``, ``'min'``, or ``'auto'`` (``'max'`` if the
            key contains ``'accuracy'``, else ``'min'``).
        verbose (bool): Print a message when stopping.
        max_trigger: Stop unconditionally when this fires (default 100
            epochs).
    """

    def __init__(self, check_trigger=(1, 'epoch'), monitor='main/loss',
                 patience=None, mode='auto', verbose=False,
                 max_trigger=(100, 'epoch'), **kwargs):
        if 'patients' in kwargs:
            if patience is not None:
                raise TypeError('EarlyStoppingTrigger: give patience or its '
                                'alias patients, not both')
            patience = kwargs.pop('patients')
        if 'max_epoch' in kwargs:
            max_trigger = (kwargs.pop('max_epoch'), 'epoch')
        if kwargs:
            raise TypeError(f'EarlyStoppingTrigger: unexpected keyword '
                            f'argument(s) {", ".join(sorted(kwargs))}')
        if patience is None:
            patience = 3
        if not isinstance(patience, int) or patience < 1:
            raise ValueError(f'EarlyStoppingTrigger: patience must be a '
                             f'positive int, got {patience!r}')
        if mode == 'auto':
            mode = 'max' if 'accuracy' in monitor else 'min'
        if mode not in ('max', 'min'):
            raise ValueError(f"EarlyStoppingTrigger: mode must be 'max', "
                             f"'min' or 'auto', got {mode!r}")
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.max_trigger = trigger_module.get_trigger(max_trigger)
        self._compare = operator.gt if mode == 'max' else operator.lt
        self._monitor = minmax_value_trigger._ValueMonitor(
            type(self).__name__, monitor, check_trigger)
        self._best = None
        self._count = 0

    def __call__(self, trainer):
        if self.max_trigger(trainer):
            return True
        value = self._monitor.observe(trainer)
        if value is None:
            return False
        if self._best is None or self._compare(value, self._best):
            self._best = value
            self._count = 0
        else:
            self._count += 1
        if self._count >= self.patience:
            if self.verbose:
                print(f'Epoch {trainer.updater.epoch}: early stopping')
            return True
        return False

    def get_training_length(self):
        """The training length of ``max_trigger``, if it has one."""
        length = getattr(self.max_trigger, 'get_training_length', None)
        return None if length is None else length()

    def serialize(self, serializer):
        """Save or load the triggers, the running mean, the best value and
        the count of checks without improvement."""
        if hasattr(self.max_trigger, 'serialize'):
            self.max_trigger.serialize(serializer['max_trigger'])
        self._monitor.serialize(serializer)
        best = serializer('best', self._best)
        self._best = None if best is None else float(best)
        self._count = int(serializer('count', self._count))
