"""Evaluation spread over the processes: an Evaluator whose results are
averaged over them, and a generic evaluator whose per-process results are
aggregated on one."""
import numpy

from kusari.array import lazy_cupy
from kusari.array import backend
from kusari.array import configuration
from kusari.autograd import graph_mode
from kusari.datasets import convert
from kusari.training import extension


def _to_host(value):
    if lazy_cupy.is_cupy_array(value):
        return value.get()
    return numpy.asarray(value)


def _mean_over_ranks(communicator, result):
    """Each value of the dict ``result`` averaged over the processes,
    which must report the same keys."""
    results = communicator.allgather_obj(
        {key: _to_host(value) for key, value in result.items()})
    keys = sorted(results[0])
    for rank, other in enumerate(results):
        if sorted(other) != keys:
            raise ValueError(
                f'multi-node evaluator: rank {rank} reported '
                f'{sorted(other)} but rank 0 reported {keys}')
    return {key: numpy.mean([r[key] for r in results], axis=0)
            for key in keys}


def create_multi_node_evaluator(actual_evaluator, communicator):
    """Make ``actual_evaluator`` report the mean of its results over all
    processes.

    Its ``evaluate`` is wrapped (the original is kept as
    ``_mn_original_evaluate``, the communicator as ``_mn_communicator``);
    every process must evaluate at the same time, on its own share of the
    validation set (:func:`scatter_dataset` with the default
    ``force_equal_length``, so that every process evaluates as many
    batches).

    Returns:
        ``actual_evaluator``, patched.
    """
    actual_evaluator._mn_original_evaluate = actual_evaluator.evaluate
    actual_evaluator._mn_communicator = communicator

    def evaluate():
        return _mean_over_ranks(communicator,
                                actual_evaluator._mn_original_evaluate())

    actual_evaluator.evaluate = evaluate
    return actual_evaluator


class GenericMultiNodeEvaluator(extension.Extension):
    """Evaluation whose per-process results are aggregated on one process
    by a function of the user's, for measures that are not means.

    Each process runs :meth:`calc_local` on each of its batches; the
    results of all processes are gathered on ``root``, which calls
    :meth:`aggregate` on the list of them and reports what it likes there.

    Args:
        comm: The communicator.
        iterator: A non-repeating iterator over this process's share.
        target (callable): The model.
        device: Where the converter sends the batches.
        converter (callable): Makes the arguments of :meth:`calc_local`
            from a batch (default :func:`~kusari.datasets.concat_examples`).
        root (int): The process that aggregates.
        progress_hook (callable): Called on ``root`` after each of its
            batches with the number done.
    """

    trigger = 1, 'epoch'
    default_name = 'validation'
    priority = extension.PRIORITY_WRITER

    def __init__(self, comm, iterator, target, device=None,
                 converter=convert.concat_examples, root=0, **kwargs):
        progress_hook = kwargs.pop('progress_hook', None)
        if kwargs:
            raise TypeError(f'GenericMultiNodeEvaluator: unexpected keyword '
                            f'arguments {sorted(kwargs)}')
        for name, value in (('target', target), ('converter', converter)):
            if not callable(value):
                raise TypeError(f'GenericMultiNodeEvaluator: {name} must be '
                                f'callable, got {type(value).__name__}')
        if getattr(iterator, 'repeat', False):
            raise ValueError('GenericMultiNodeEvaluator: the iterator must '
                             'not repeat (pass repeat=False)')
        self.comm = comm
        self.iterator = iterator
        self.target = target
        self.device = None if device is None else backend.get_device(device)
        self.converter = converter
        self.root = root
        self.progress_hook = progress_hook

    def __call__(self, trainer=None):
        """Evaluate on every process; the result of :meth:`aggregate` on
        ``root``, None elsewhere."""
        if hasattr(self.iterator, 'reset'):
            self.iterator.reset()
        results = []
        with configuration.using_config('train', False), \
                graph_mode.no_backprop_mode():
            for count, batch in enumerate(self.iterator, 1):
                arguments = convert.call_converter(self.converter, batch,
                                                   self.device)
                if isinstance(arguments, dict):
                    result = self.calc_local(**arguments)
                elif isinstance(arguments, tuple):
                    result = self.calc_local(*arguments)
                else:
                    result = self.calc_local(arguments)
                if result is None:
                    raise ValueError('GenericMultiNodeEvaluator: calc_local '
                                     'returned None')
                results.append(result)
                if self.progress_hook and self.comm.rank == self.root:
                    self.progress_hook(count)
        gathered = self.comm.gather_obj(results, self.root)
        if self.comm.rank != self.root:
            return None
        return self.aggregate([r for part in gathered for r in part])

    def calc_local(self, *args, **kwargs):
        """The result of one batch: by default the target's output, as
        host arrays."""
        output = self.target(*args, **kwargs)
        return _to_host(getattr(output, 'array', output))

    def aggregate(self, results):
        """Combine the results of every batch of every process (on the
        root only); by default return them."""
        return results
