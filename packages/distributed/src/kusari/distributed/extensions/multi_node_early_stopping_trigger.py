"""Early stopping on a value averaged over the processes."""
from kusari.distributed.extensions.observation_aggregator import \
    ObservationAggregator
from kusari.training.triggers import EarlyStoppingTrigger


class MultiNodeEarlyStoppingTrigger:
    """Stop trigger of :class:`~kusari.training.triggers.EarlyStoppingTrigger`
    on the mean of the monitored value over all processes, so that they
    all stop at the same iteration.

    At each check the values of ``monitor`` observed since the last check
    on every process are averaged (by an :class:`ObservationAggregator`)
    into ``monitor + suffix``, which the early stopping trigger compares
    with the best so far. Every process must use it (it communicates).

    Args:
        comm: The communicator.
        check_trigger: When to compare: a ``(period, unit)`` pair
            (default every epoch).
        monitor (str): Key of the observed value.
        patience (int): Checks without improvement tolerated (default 3;
            ``patients`` is an alias).
        mode (str): ``'max'``, ``'min'`` or ``'auto'``.
        verbose (bool): Print a message when stopping.
        max_trigger: Stop unconditionally when this fires (default 100
            epochs).
        suffix (str): Appended to ``monitor`` for the key of the mean.
    """

    def __init__(self, comm, *, check_trigger=(1, 'epoch'),
                 monitor='main/loss', patience=None, mode='auto',
                 verbose=False, max_trigger=(100, 'epoch'),
                 suffix='_aggregated', **kwargs):
        aggregated = monitor + suffix
        self.actual_trigger = EarlyStoppingTrigger(
            check_trigger=check_trigger, monitor=aggregated,
            patience=patience, mode=mode, verbose=verbose,
            max_trigger=max_trigger, **kwargs)
        self.aggregator = ObservationAggregator(
            comm, monitor, aggregated_key=aggregated,
            comm_trigger=check_trigger)

    def __call__(self, trainer):
        self.aggregator(trainer)
        return self.actual_trigger(trainer)

    def get_training_length(self):
        """The training length of ``max_trigger``, if it has one."""
        return self.actual_trigger.get_training_length()

    def serialize(self, serializer):
        """Save or load the early stopping state and the aggregation's."""
        self.actual_trigger.serialize(serializer['actual_trigger'])
        self.aggregator.serialize(serializer['aggregator'])
