"""Snapshots: saving the trainer (or any object) during training, and
resuming from the latest one."""
import logging
import os
import warnings

import numpy

from kusari.array import lazy_cupy
from kusari.serializers import atomic
from kusari.serializers import hdf5
from kusari.serializers import npz
from kusari.serializers import serializer as serializer_module
from kusari.training import extension
from kusari.training.extensions import _templates
from kusari.training.extensions import snapshot_writers

_LOADERS = {npz.save_npz: npz.load_npz, hdf5.save_hdf5: hdf5.load_hdf5}
#: The suffix autoload gives a damaged snapshot when it sets it aside.
DAMAGED_SUFFIX = '.damaged'


class DamagedSnapshotWarning(RuntimeWarning):
    """Autoload met a damaged snapshot (truncated, corrupt) and resumes
    from an older one."""


def _host_copy(value):
    if value is None or isinstance(value, (str, bytes)):
        return value
    if lazy_cupy.is_cupy_array(value):
        return value.get()
    return numpy.array(value, copy=True)


class _Recorder(serializer_module.Serializer):
    """Serializer that records copies of the values by key path, so that a
    snapshot is a consistent picture even if written later, while training
    goes on changing the arrays in place."""

    def __init__(self, values=None, path=()):
        self.values = {} if values is None else values
        self.path = path

    def __getitem__(self, key):
        return _Recorder(self.values, self.path + (key,))

    def __call__(self, key, value):
        self.values[self.path + (key,)] = _host_copy(value)
        return value


class _State:
    """A recorded state; its ``serialize`` replays the values into any
    serializer, so every save function can write it."""

    def __init__(self, values):
        self.values = values

    def serialize(self, serializer):
        for path, value in self.values.items():
            target = serializer
            for name in path[:-1]:
                target = target[name]
            target(path[-1], value)


def _files(outdir):
    """The names of the regular files in ``outdir`` (none if it does not
    exist)."""
    try:
        names = os.listdir(outdir)
    except FileNotFoundError:
        return []
    return [name for name in names
            if os.path.isfile(os.path.join(outdir, name))]


def _find_snapshot_files(template, outdir):
    """``(mtime, name)`` of each file in ``outdir`` that ``template`` could
    have named, oldest first (Chainer's helper of the same name)."""
    found = []
    for name in _files(outdir):
        if (_templates.could_name(template, name)
                and not atomic.is_temporary(name)
                and not name.endswith(DAMAGED_SUFFIX)):
            found.append((os.stat(os.path.join(outdir, name)).st_mtime_ns,
                          name))
    return sorted(found)


def _set_aside(path):
    """Rename the damaged snapshot ``path`` to one ending in ``.damaged``,
    which no snapshot is looked for by; return the new path."""
    aside = f'{path}{DAMAGED_SUFFIX}'
    number = 0
    while os.path.exists(aside):
        number += 1
        aside = f'{path}.{number}{DAMAGED_SUFFIX}'
    os.rename(path, aside)
    return aside


def _find_latest_snapshot(template, outdir):
    """The name of the newest file ``template`` could have named in
    ``outdir``, or None."""
    files = _find_snapshot_files(template, outdir)
    return files[-1][1] if files else None


def _find_stale_snapshots(template, outdir, n_retains):
    """The names of the snapshots beyond the ``n_retains`` newest, oldest
    first."""
    files = _find_snapshot_files(template, outdir)
    return [name for _, name in files[:max(len(files) - n_retains, 0)]]


class _Snapshot(extension.Extension):
    """The extension :func:`snapshot` and :func:`snapshot_object` return.
    """

    trigger = 1, 'epoch'
    priority = -100

    def __init__(self, target=None, condition=None, writer=None,
                 filename='snapshot_iter_{.updater.iteration}',
                 snapshot_on_error=False, n_retains=-1, autoload=False,
                 savefun=None):
        if not (isinstance(filename, str) or callable(filename)):
            raise TypeError(f'snapshot: filename must be a str template or '
                            f'a callable, got {type(filename).__name__}')
        if condition is not None and not callable(condition):
            raise TypeError(f'snapshot: condition must be callable, got '
                            f'{type(condition).__name__}')
        if writer is not None and savefun is not None:
            raise TypeError('snapshot: give either a writer or a savefun, '
                             'not both (a writer takes its own savefun)')
        if not isinstance(n_retains, int) or isinstance(n_retains, bool):
            raise TypeError(f'snapshot: n_retains must be an int (positive '
                            f'to keep that many snapshots, else all); got '
                            f'{n_retains!r}')
        if savefun is None:
            savefun = npz.save_npz
        if autoload:
            if not isinstance(filename, str):
                raise ValueError('snapshot: autoload needs a str filename '
                                 'template to find the snapshots by')
            if writer is None and savefun not in _LOADERS:
                raise ValueError('snapshot: autoload can only load what '
                                 'save_npz or save_hdf5 wrote')
        if writer is None:
            writer = snapshot_writers.SimpleWriter(savefun=savefun)
        self._target = target
        self.filename = filename
        self.condition = condition
        self.writer = writer
        self._snapshot_on_error = snapshot_on_error
        self.n_retains = n_retains
        self.autoload = bool(autoload)
        self._loadfun = _LOADERS.get(savefun, npz.load_npz)
        if n_retains > 0:
            if isinstance(filename, str):
                writer._post_save_hooks.append(self._remove_stale)
            else:
                warnings.warn('snapshot: n_retains removes old snapshots '
                              'only with a str filename template; with a '
                              'callable filename every snapshot is kept',
                              stacklevel=3)

    def initialize(self, trainer):
        """Remove the temporary files of snapshot writes that a killed run
        left in ``trainer.out``, and load the latest snapshot there if
        ``autoload``."""
        if isinstance(self.filename, str):
            _templates.remove_abandoned(trainer.out, self.filename)
        if self.autoload:
            self._load_newest(trainer.out,
                              trainer if self._target is None
                              else self._target)

    def _load_newest(self, outdir, target):
        """Load the newest snapshot in ``outdir`` that is not damaged,
        setting the damaged ones aside."""
        damaged = []
        for _, name in reversed(_find_snapshot_files(self.filename, outdir)):
            path = os.path.join(outdir, name)
            try:
                self._loadfun(path, target)
                logging.getLogger('kusari.training').info(
                    'snapshot: resumed from %s', path)
                return
            except serializer_module.SerializationError as error:
                aside = _set_aside(path)
                damaged.append(aside)
                warnings.warn(
                    f'snapshot: {path} is damaged and cannot be loaded '
                    f'({error}); it is renamed to {aside}, and the next '
                    f'older snapshot is tried', DamagedSnapshotWarning)
            except (KeyError, ValueError, TypeError, OSError) as error:
                raise RuntimeError(
                    f'snapshot: cannot resume from {path}: it does not '
                    f'match the {type(target).__name__} being trained '
                    f'({error})') from error
        if damaged:
            # The damage may have been found after some values loaded.
            raise RuntimeError(
                f'snapshot: cannot resume: every snapshot in {outdir} is '
                f'damaged (renamed to {", ".join(damaged)}); start again '
                f'to train from the beginning')

    def __call__(self, trainer):
        if self.condition is None or self.condition():
            self._make_snapshot(trainer)

    def on_error(self, trainer, exc, tb):
        if self._snapshot_on_error:
            self._make_snapshot(trainer)

    def finalize(self):
        self.writer.finalize()

    def _make_snapshot(self, trainer):
        target = trainer if self._target is None else self._target
        recorder = _Recorder()
        recorder.save(target)
        filename = self.filename
        filename = (filename(trainer) if callable(filename)
                    else filename.format(trainer))
        self.writer(filename, trainer.out, _State(recorder.values))

    def _remove_stale(self, outdir):
        for name in _find_stale_snapshots(self.filename, outdir,
                                          self.n_retains):
            os.remove(os.path.join(outdir, name))


def snapshot(savefun=None, filename='snapshot_iter_{.updater.iteration}',
             **kwargs):
    """Return an extension that saves the trainer (or ``target``).

    The default trigger is every epoch and the priority -100, so the
    snapshot sees what every other extension did in that iteration.

    Args:
        savefun: Save function ``savefun(path, obj)`` (default
            :func:`~kusari.serializers.save_npz`); give either this or
            ``writer``.
        filename (str or callable): File name in ``trainer.out``: a
            template formatted with the trainer
            (``'snapshot_iter_{.updater.iteration}'``) or a callable taking
            the trainer.
        target: Object to save instead of the trainer.
        condition (callable): Called without arguments before each
            snapshot; it is skipped when this returns False.
        writer: A :mod:`snapshot writer <snapshot_writers>` (default
            :class:`SimpleWriter`).
        snapshot_on_error (bool): Also save when the training loop fails.
        n_retains (int): Keep only this many newest snapshots (0 or
            negative: keep all). Only a str ``filename`` finds the old
            ones: with a callable one, every snapshot is kept (with a
            warning), as in Chainer.
        autoload (bool): On initialization, load the newest snapshot found
            in ``trainer.out`` (the newest file the template could name),
            which resumes an interrupted training. The trainer initializes
            this extension before the others, so they see the loaded state.
            A damaged file (truncated, corrupt: it cannot be read) is
            renamed aside with the suffix ``.damaged``, with a
            :class:`DamagedSnapshotWarning` saying what is wrong, and the
            next older one is loaded; a RuntimeError is raised if none is
            left. A file that is readable but of another model raises
            RuntimeError naming it. Temporary files of snapshot writes
            that a killed run left are removed first (with a str
            ``filename``, autoload or not).
    """
    return _Snapshot(savefun=savefun, filename=filename, **kwargs)


def snapshot_object(target, filename, savefun=None, **kwargs):
    """Return an extension that saves ``target`` (a link, an optimizer, ...)
    to ``filename``; the other arguments are as in :func:`snapshot`."""
    return _Snapshot(target=target, filename=filename, savefun=savefun,
                     **kwargs)
