"""Writing the mean of reported values to a JSON log."""
import json
import os

from kusari.links import reporter
from kusari.serializers import atomic
from kusari.serializers import serializer as serializer_module
from kusari.training import extension
from kusari.training import trigger as trigger_module
from kusari.training.extensions import _templates


class LogReport(extension.Extension):
    """Trainer extension that logs the means of the reported values.

    It is called every iteration and adds the observation to a running
    summary; when ``trigger`` fires, it appends the means (as floats) with
    ``epoch``, ``iteration`` and ``elapsed_time`` to :attr:`log`, and
    rewrites the log file in ``trainer.out`` as a JSON list (atomically: a
    reader or a crash never sees a partial file).

    Args:
        keys (list of str): Keys to log; None logs every reported scalar.
        trigger: When to append an entry (default every epoch).
        postprocess (callable): Called with each entry (a dict) before it
            is appended; it may edit it.
        filename (str): Name of the log file, formatted with the entry's
            values (``'log_{iteration}'``); None writes no file. Default
            ``'log'``.
    """

    def __init__(self, keys=None, trigger=(1, 'epoch'), postprocess=None,
                 filename=None, **kwargs):
        if 'log_name' in kwargs:
            if filename is not None:
                raise ValueError('LogReport: give filename or log_name '
                                 '(its old name), not both')
            filename = kwargs.pop('log_name')
        elif filename is None:
            filename = 'log'
        extension.check_no_removed_arguments('LogReport', kwargs)
        if postprocess is not None and not callable(postprocess):
            raise TypeError(f'LogReport: postprocess must be callable, got '
                            f'{type(postprocess).__name__}')
        self._keys = keys
        self._trigger = trigger_module.get_trigger(trigger)
        self._postprocess = postprocess
        self._log_name = filename
        self._log = []
        self._summary = reporter.DictSummary()

    def initialize(self, trainer):
        """Remove the temporary files of log writes that a killed run left
        in ``trainer.out``."""
        if self._log_name is not None:
            _templates.remove_abandoned(trainer.out, self._log_name)

    @property
    def log(self):
        """The entries so far: a list of dicts."""
        return self._log

    def __call__(self, trainer):
        observation = trainer.observation
        if self._keys is None:
            self._summary.add(observation)
        else:
            self._summary.add({key: observation[key] for key in self._keys
                               if key in observation})
        if not self._trigger(trainer):
            return
        entry = {name: float(value)
                 for name, value in self._summary.compute_mean().items()}
        updater = trainer.updater
        entry['epoch'] = updater.epoch
        entry['iteration'] = updater.iteration
        entry['elapsed_time'] = trainer.elapsed_time
        if self._postprocess is not None:
            self._postprocess(entry)
        self._log.append(entry)
        if self._log_name is not None:
            self._write(trainer.out, self._log_name.format(**entry))
        self._summary = reporter.DictSummary()

    def _write(self, outdir, name):
        os.makedirs(outdir, exist_ok=True)
        with atomic.replacing(os.path.join(outdir, name)) as temporary:
            with open(temporary, 'w') as stream:
                json.dump(self._log, stream, indent=4)

    def serialize(self, serializer):
        """Save or load the trigger, the running summary and the log."""
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        self._summary.serialize(serializer['_summary'])
        if isinstance(serializer, serializer_module.Serializer):
            serializer('_log', json.dumps(self._log))
        else:
            self._log = json.loads(str(serializer('_log', '')))
