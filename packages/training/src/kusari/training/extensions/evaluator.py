"""Evaluating models on a validation set during training."""
import copy
import sys
import warnings

from kusari.array import backend
from kusari.array import configuration
from kusari.autograd import graph_mode
from kusari.datasets import convert
from kusari.links import reporter as reporter_module
from kusari.training import extension
from kusari.training.extensions import _terminal
from kusari.training.updaters import standard_updater


class Evaluator(extension.Extension):
    """Trainer extension that evaluates models on a validation set.

    Each call runs ``eval_func`` (by default the ``'main'`` target) on
    every batch of the ``'main'`` iterator, under
    ``using_config('train', False)`` and ``no_backprop_mode``, with a
    reporter whose observers are the targets' links, named
    ``'<extension name>/<target name>'``. The means of what they report
    are returned and reported: as ``'validation/main/loss'``, ... with the
    default name ``'validation'``.

    Args:
        iterator: The validation iterator (it is reset before each
            evaluation; it should not repeat), or a dict of them with a
            ``'main'`` one.
        target: The link to evaluate, or a dict of them with a ``'main'``
            one.
        converter: Makes arrays from a batch (default
            :func:`~kusari.datasets.concat_examples`).
        device: Device the batches are sent to.
        eval_hook (callable): Called with the evaluator before each
            evaluation.
        eval_func (callable): Called on each batch instead of the main
            target.
        progress_bar (bool): Draw the progress of the evaluation on stdout.

    Attributes:
        converter, device, eval_hook, eval_func.
    """

    trigger = 1, 'epoch'
    default_name = 'validation'
    priority = extension.PRIORITY_WRITER

    def __init__(self, iterator, target, converter=convert.concat_examples,
                 device=None, eval_hook=None, eval_func=None, **kwargs):
        progress_bar = kwargs.pop('progress_bar', False)
        extension.check_no_removed_arguments('Evaluator', kwargs)
        iterators = standard_updater._named('Evaluator', 'iterators',
                                            iterator)
        for name, it in iterators.items():
            if getattr(it, 'repeat', False) is True:
                warnings.warn(
                    f'Evaluator: the repeat property of the iterator '
                    f'{name!r} is set to True; the evaluator sweeps an '
                    f'iterator until it stops, so this one might not stop '
                    f'and the evaluation could loop forever (give it '
                    f'repeat=False)', UserWarning, stacklevel=2)
        # No 'main' target is needed where eval_func does the evaluation.
        targets = standard_updater._named('Evaluator', 'targets', target,
                                          main_required=False)
        for name, link in targets.items():
            if not callable(getattr(link, 'namedlinks', None)):
                raise TypeError(f'Evaluator: target {name!r} must be a '
                                f'Link, got {type(link).__name__}')
        for name, hook in (('converter', converter), ('eval_hook', eval_hook),
                           ('eval_func', eval_func)):
            if hook is not None and not callable(hook):
                raise TypeError(f'Evaluator: {name} must be callable, got '
                                f'{type(hook).__name__}')
        self._iterators = iterators
        self._targets = targets
        self.converter = converter
        self.device = None if device is None else backend.get_device(device)
        self.eval_hook = eval_hook
        self.eval_func = eval_func
        self._progress_bar = progress_bar

    def get_iterator(self, name):
        """The iterator registered as ``name``."""
        return self._iterators[name]

    def get_all_iterators(self):
        """A dict of every iterator by name."""
        return dict(self._iterators)

    def get_target(self, name):
        """The target link registered as ``name``."""
        return self._targets[name]

    def get_all_targets(self):
        """A dict of every target link by name."""
        return dict(self._targets)

    def __call__(self, trainer=None):
        """Evaluate, report the results to the current reporter (if any)
        and return them as a dict."""
        reporter = reporter_module.Reporter()
        prefix = '' if self.name is None else self.name + '/'
        for name, target in self._targets.items():
            reporter.add_observer(prefix + name, target)
            reporter.add_observers(prefix + name,
                                   target.namedlinks(skipself=True))
        with reporter, configuration.using_config('train', False):
            result = self.evaluate()
        reporter_module.report(result)
        return result

    def evaluate(self):
        """Run the evaluation over the main iterator; return the means of
        the reported values (keys without the extension's name)."""
        iterator = self._iterators['main']
        eval_func = self.eval_func or self._targets.get('main')
        if eval_func is None:
            raise KeyError("Evaluator: no eval_func and no 'main' target to "
                           "evaluate with")
        if self.eval_hook:
            self.eval_hook(self)
        if hasattr(iterator, 'reset'):
            iterator.reset()
            batches = iterator
        else:
            warnings.warn(
                'Evaluator: the iterator has no reset(); a copy is used, '
                'which may not start from the beginning', UserWarning)
            batches = copy.copy(iterator)
        summary = reporter_module.DictSummary()
        progress = _EvaluationProgress(self.name or 'validation',
                                       iterator) if self._progress_bar \
            else None
        for count, batch in enumerate(batches, 1):
            observation = {}
            with reporter_module.report_scope(observation):
                in_arrays = convert.call_converter(self.converter, batch,
                                                   self.device)
                with graph_mode.no_backprop_mode():
                    standard_updater.call_with_batch(eval_func, in_arrays)
            summary.add(observation)
            if progress is not None:
                progress.update(count)
        if progress is not None:
            progress.close()
        return summary.compute_mean()

    def finalize(self):
        """Finalize the iterators."""
        for iterator in self._iterators.values():
            iterator.finalize()


class _EvaluationProgress:
    """The progress of one evaluation, redrawn in place on stdout."""

    def __init__(self, name, iterator, out=None):
        self._name = name
        self._out = sys.stdout if out is None else out
        dataset = getattr(iterator, 'dataset', None)
        batch_size = getattr(iterator, 'batch_size', None)
        self._total = None
        if dataset is not None and batch_size:
            self._total = -(-len(dataset) // batch_size)
        self._speed = _terminal.Speed()

    def update(self, count):
        speed = self._speed.update(count)
        if self._total:
            rate = count / self._total
            head = (f'{self._name} {_terminal.bar(rate, 50)} '
                    f'{rate:6.2%}')
        else:
            head = f'{self._name} {count} iterations'
        _terminal.draw(self._out, [head, f'{speed:10.5g} iters/sec.'])

    def close(self):
        self._out.write(_terminal.CLEAR)
        self._out.flush()
