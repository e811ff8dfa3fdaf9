"""Aggregating an observed value over the processes."""
from kusari.array import backend
from kusari.autograd import Variable
from kusari.training import extension
from kusari.training import trigger as trigger_module


def _to_host(value):
    """``value`` with its array on the host; a Variable becomes a new one
    without a graph."""
    if isinstance(value, Variable):
        return Variable(backend.CpuDevice().send(value.array),
                        requires_grad=False)
    if backend.is_array_supported(value):
        return backend.CpuDevice().send(value)
    return value


def _mean(histories):
    """The mean of every value of every process; None where none was
    observed."""
    values = [value for history in histories for value in history]
    if not values:
        return None
    return sum(values) / len(values)


class ObservationAggregator(extension.Extension):
    """Trainer extension that replaces an observed value by an aggregate
    of it over all processes (by default its mean).

    Each iteration it keeps this process's value of ``original_key``
    (copied to the host); when ``comm_trigger`` fires, rank 0 gathers
    every process's values since the last time, aggregates them, and
    every process stores the result as ``aggregated_key`` in the
    observation, where LogReport or a trigger reads it. Every process
    must run it (it communicates).

    Args:
        comm: The communicator.
        original_key (str): Key of the observed value.
        aggregated_key (str): Key the aggregate is stored under (default
            ``original_key``, replacing the value).
        comm_trigger: When to communicate and aggregate: a
            ``(period, unit)`` pair or a trigger (default every
            iteration).
        aggregator (callable): Takes the list (one per process, in rank
            order) of lists of the values observed since the last
            communication, and returns the aggregate; it runs on rank 0.
            Default: the mean of all values (nothing is stored where no
            process observed one).
    """

    trigger = 1, 'iteration'
    priority = extension.PRIORITY_EDITOR
    name = None

    def __init__(self, comm, original_key, aggregated_key=None, *,
                 comm_trigger=(1, 'iteration'), aggregator=None):
        self.comm = comm
        self.original_key = original_key
        self.aggregated_key = original_key if aggregated_key is None \
            else aggregated_key
        self.comm_trigger = trigger_module.get_trigger(comm_trigger)
        self.aggregator = _mean if aggregator is None else aggregator
        self.observation_history = []

    def compute_summary(self, trainer):
        """Keep this iteration's value; when ``comm_trigger`` fires, return
        the aggregate over the processes (the same on each), else None."""
        if self.original_key in trainer.observation:
            self.observation_history.append(
                _to_host(trainer.observation[self.original_key]))
        if not self.comm_trigger(trainer):
            return None
        histories = self.comm.gather_obj(self.observation_history)
        self.observation_history = []
        summary = self.aggregator(histories) if self.comm.rank == 0 \
            else None
        return self.comm.bcast_obj(summary)

    def __call__(self, trainer):
        summary = self.compute_summary(trainer)
        if summary is not None:
            trainer.observation[self.aggregated_key] = summary

    def serialize(self, serializer):
        """Save or load the progress of ``comm_trigger``."""
        if hasattr(self.comm_trigger, 'serialize'):
            self.comm_trigger.serialize(serializer['comm_trigger'])
