"""The training loop."""
import collections
import os
import sys
import time
import traceback

from kusari.links import reporter as reporter_module
from kusari.serializers import serializer as serializer_module
from kusari.training import _serialization
from kusari.training import extension as extension_module
from kusari.training import trigger as trigger_module

_Entry = collections.namedtuple(
    '_Entry', ('extension', 'priority', 'trigger', 'call_before_training'))


def _extension_name(extension):
    for attribute in ('name', 'default_name', '__name__'):
        name = getattr(extension, attribute, None)
        if name is not None:
            return name
    raise TypeError(
        f'Trainer.extend: no name is given for the extension '
        f'{type(extension).__name__} and it has no name, default_name or '
        f'__name__; pass name=...')


class Trainer:
    """The standard training loop.

    Each iteration runs the updater's :meth:`update` and then every
    extension whose trigger fires, highest priority first, all inside a
    reporter scope writing into a fresh :attr:`observation`. The loop ends
    when ``stop_trigger`` fires.

    If the loop raises, the trainer calls each extension's ``on_error``,
    then (as after a normal end) each extension's ``finalize`` and the
    updater's ``finalize``, and re-raises.

    Args:
        updater: The :class:`~kusari.training.Updater`.
        stop_trigger: When to stop: a ``(length, unit)`` pair or a trigger;
            None never stops.
        out (str): Output directory of the extensions (logs, snapshots).
        extensions (list): Extensions to add with :meth:`extend`.

    Attributes:
        updater, stop_trigger, out.
        observation (dict): The values reported in the current iteration.
        reporter (Reporter): The reporter, with every link of every
            optimizer's target registered as an observer under the
            optimizer's name (``'main'``, ``'main/predictor'``, ...).
    """

    def __init__(self, updater, stop_trigger=None, out='result',
                 extensions=None):
        if not callable(getattr(updater, 'update', None)):
            raise TypeError(f'Trainer: updater must be an Updater, got '
                            f'{type(updater).__name__}')
        if not isinstance(out, (str, os.PathLike)):
            raise TypeError(f'Trainer: out must be a path, got '
                            f'{type(out).__name__}')
        self.updater = updater
        self.stop_trigger = trigger_module.get_trigger(stop_trigger)
        self.observation = {}
        self.out = os.fspath(out)
        self.reporter = reporter_module.Reporter()
        for name, optimizer in updater.get_all_optimizers().items():
            self.reporter.add_observer(name, optimizer.target)
            self.reporter.add_observers(
                name, optimizer.target.namedlinks(skipself=True))
        self._extensions = collections.OrderedDict()
        self._start_at = None
        self._snapshot_elapsed_time = 0.
        self._final_elapsed_time = None
        self._done = False
        updater.connect_trainer(self)
        for extension in extensions or ():
            self.extend(extension)

    @property
    def is_before_training(self):
        """Whether no update has been done yet."""
        return self.updater.iteration == 0

    @property
    def elapsed_time(self):
        """Seconds of training so far, including the time before the
        snapshot this run resumed from."""
        if self._done:
            return self._final_elapsed_time
        if self._start_at is None:
            raise RuntimeError('Trainer.elapsed_time: training has not '
                               'started yet')
        return time.perf_counter() - self._start_at \
            + self._snapshot_elapsed_time

    def extend(self, extension, name=None, trigger=None, priority=None, *,
               call_before_training=False, **kwargs):
        """Add an extension.

        Args:
            extension: A callable taking the trainer.
            name (str): Its name; defaults to its ``name``,
                ``default_name`` or ``__name__``. A name already used gets
                the suffix ``_1``, ``_2``, ...
            trigger: When to call it; defaults to its ``trigger``, or every
                iteration.
            priority (int): Defaults to its ``priority``, or
                :data:`~kusari.training.extension.PRIORITY_READER`.
            call_before_training (bool): Also call it once before the first
                update of :meth:`run`.
        """
        extension_module.check_no_removed_arguments('Trainer.extend', kwargs)
        if not callable(extension):
            raise TypeError(f'Trainer.extend: an extension must be callable '
                            f'(taking the trainer), got '
                            f'{type(extension).__name__}')
        if name is None:
            name = _extension_name(extension)
        if name == 'training':
            raise ValueError('Trainer.extend: the name "training" is '
                             'reserved; choose another extension name')
        if trigger is None:
            trigger = getattr(extension, 'trigger', None)
            if trigger is None:
                trigger = extension_module.Extension.trigger
        trigger = trigger_module.get_trigger(trigger)
        if priority is None:
            priority = getattr(extension, 'priority', None)
            if priority is None:
                priority = extension_module.PRIORITY_READER
        unique = name
        ordinal = 0
        while unique in self._extensions:
            ordinal += 1
            unique = f'{name}_{ordinal}'
        extension.name = unique
        self._extensions[unique] = _Entry(extension, priority, trigger,
                                          call_before_training)

    def get_extension(self, name):
        """The extension added as ``name``."""
        entry = self._extensions.get(name)
        if entry is None:
            raise ValueError(f'Trainer.get_extension: no extension named '
                             f'{name!r} (the extensions are '
                             f'{list(self._extensions)})')
        return entry.extension

    def _ordered_extensions(self):
        # sorted() is stable: equal priorities keep the order of extend().
        return sorted(self._extensions.items(),
                      key=lambda item: item[1].priority, reverse=True)

    def _initialize(self, extensions):
        # An extension that restores the trainer from a snapshot goes
        # first, so that the others initialize from the restored state.
        entries = [entry for _, entry in extensions]
        entries.sort(key=lambda entry: getattr(
            entry.extension, 'autoload', False) is not True)
        for entry in entries:
            initialize = getattr(entry.extension, 'initialize', None)
            if initialize and not getattr(entry.trigger, 'finished', False):
                initialize(self)

    def run(self, show_loop_exception_msg=True):
        """Run the training loop until the stop trigger fires.

        Args:
            show_loop_exception_msg (bool): Print the exception and its
                traceback to stderr when the loop fails.
        """
        if self._done:
            raise RuntimeError('Trainer.run: this trainer has already run; '
                               'a trainer can run only once')
        os.makedirs(self.out, exist_ok=True)
        extensions = self._ordered_extensions()
        self._start_at = time.perf_counter()
        update = self.updater.update
        reporter = self.reporter
        stop_trigger = self.stop_trigger
        try:
            self._initialize(extensions)
            self.observation = {}
            with reporter.scope(self.observation):
                for _, entry in extensions:
                    if entry.call_before_training:
                        entry.extension(self)
            while not stop_trigger(self):
                self.observation = {}
                with reporter.scope(self.observation):
                    update()
                    for _, entry in extensions:
                        if entry.trigger(self):
                            entry.extension(self)
        except Exception as error:
            self._report_failure(error, extensions, show_loop_exception_msg)
            raise
        finally:
            for _, entry in extensions:
                finalize = getattr(entry.extension, 'finalize', None)
                if finalize:
                    finalize()
            self.updater.finalize()
            self._final_elapsed_time = self.elapsed_time
            self._done = True

    def _report_failure(self, error, extensions, show_message):
        tb = sys.exc_info()[2]
        if show_message:
            print(f'Exception in main training loop: {error}',
                  file=sys.stderr)
            print('Traceback (most recent call last):', file=sys.stderr)
            traceback.print_tb(tb, file=sys.stderr)
            print('Will finalize trainer extensions and updater before '
                  'reraising the exception.', file=sys.stderr)
        for _, entry in extensions:
            on_error = getattr(entry.extension, 'on_error', None)
            if on_error:
                try:
                    on_error(self, error, tb)
                except Exception as handler_error:
                    print(f'Exception in error handler of '
                          f'{entry.extension.name}: {handler_error}',
                          file=sys.stderr)

    def serialize(self, serializer):
        """Save or load the updater (``updater``), the stop trigger
        (``stop_trigger``), each extension (``extensions/<name>``) and
        its trigger (``extension_triggers/<name>``), the elapsed time, and
        the state of the random number generators (``random_state``), so
        that a resumed run draws the same dropout masks and shuffled orders
        as an uninterrupted one.
        """
        self.updater.serialize(serializer['updater'])
        if hasattr(self.stop_trigger, 'serialize'):
            self.stop_trigger.serialize(serializer['stop_trigger'])
        extensions = serializer['extensions']
        triggers = serializer['extension_triggers']
        for name, entry in self._extensions.items():
            if hasattr(entry.extension, 'serialize'):
                entry.extension.serialize(extensions[name])
            if hasattr(entry.trigger, 'serialize'):
                entry.trigger.serialize(triggers[name])
        if isinstance(serializer, serializer_module.Serializer):
            elapsed = (self._snapshot_elapsed_time if self._start_at is None
                       else self.elapsed_time)
            serializer('_snapshot_elapsed_time', elapsed)
        else:
            self._snapshot_elapsed_time = float(
                serializer('_snapshot_elapsed_time', 0.))
            if self._start_at is not None:
                self._start_at = time.perf_counter()
        # Last, so that nothing loaded after it draws from the generators.
        _serialization.serialize_random_state(serializer['random_state'])
