"""Snapshot writers: how and where a snapshot's file gets written.

Every writer writes atomically: the file is written under a temporary name
in the output directory and moved over its final name only once complete,
so a crash or kill while saving leaves the previous files as they were.
The writers differ in who does the work: the training thread
(:class:`SimpleWriter`), a new thread or process per snapshot
(:class:`ThreadWriter`, :class:`ProcessWriter`), or one long-lived thread
or process fed by a queue (:class:`ThreadQueueWriter`,
:class:`ProcessQueueWriter`).

A failure in a background writer is raised in the training thread at the
next snapshot or at the end of training.
"""
import multiprocessing
import os
import queue
import threading

from kusari.serializers import atomic
from kusari.serializers import npz


class Writer:
    """Base class of snapshot writers.

    A writer is called as ``writer(filename, outdir, target)``, where
    ``target`` is an object with a ``serialize`` method holding the state
    to save; :meth:`save` does the atomic write.
    """

    def __init__(self):
        self._post_save_hooks = []

    def __call__(self, filename, outdir, target):
        raise NotImplementedError(
            f'{type(self).__name__} must implement '
            f'__call__(filename, outdir, target)')

    def initialize(self, outdir):
        """Create the output directory."""
        os.makedirs(outdir, exist_ok=True)

    def finalize(self):
        """Wait for pending writes (none for a synchronous writer)."""

    def save(self, filename, outdir, target, savefun, **kwds):
        """Write ``target`` to ``outdir/filename`` with
        ``savefun(path, target, **kwds)``, atomically."""
        os.makedirs(outdir, exist_ok=True)
        with atomic.replacing(os.path.join(outdir, filename)) as temporary:
            savefun(temporary, target, **kwds)
        for hook in self._post_save_hooks:
            hook(outdir)


class _SavefunWriter(Writer):
    """Base of the writers that call ``savefun`` with the same keyword
    arguments for every snapshot.

    Args:
        savefun: ``savefun(path, target, **kwds)`` (default
            :func:`~kusari.serializers.save_npz`).
        kwds: Passed to ``savefun``.
    """

    def __init__(self, savefun=npz.save_npz, **kwds):
        super().__init__()
        self._savefun = savefun
        self._kwds = kwds


class SimpleWriter(_SavefunWriter):
    """Writer that saves in the training thread.

    Args:
        savefun: ``savefun(path, target, **kwds)`` (default
            :func:`~kusari.serializers.save_npz`).
        kwds: Passed to ``savefun``.
    """

    def __call__(self, filename, outdir, target):
        self.save(filename, outdir, target, self._savefun, **self._kwds)


def _exitcode(worker):
    """The exit code of a worker process (0 for a thread, whose failure
    :class:`_Outcome` keeps, or any other worker a subclass makes)."""
    if isinstance(worker, multiprocessing.process.BaseProcess):
        return worker.exitcode
    return 0


class _Outcome:
    """Where a background write leaves its exception for the trainer."""

    def __init__(self):
        self.error = None

    def run(self, function, *args, **kwargs):
        try:
            function(*args, **kwargs)
        except BaseException as error:
            self.error = error

    def raise_error(self, writer):
        error, self.error = self.error, None
        if error is not None:
            raise RuntimeError(f'{type(writer).__name__}: a snapshot could '
                               f'not be written: {error}') from error


class StandardWriter(_SavefunWriter):
    """Base of writers that save each snapshot in a new worker (a thread
    or a process) while training goes on; a new snapshot first waits for
    the previous one.

    Args:
        savefun, kwds: As in :class:`SimpleWriter`.
    """

    def __init__(self, savefun=npz.save_npz, **kwds):
        super().__init__(savefun, **kwds)
        self._worker = None
        self._outcome = _Outcome()

    def create_worker(self, filename, outdir, target, **kwds):
        """Return an unstarted thread or process that saves ``target``."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement create_worker')

    def __call__(self, filename, outdir, target):
        self._join()
        self._worker = self.create_worker(filename, outdir, target,
                                          **self._kwds)
        self._worker.start()

    def _join(self):
        worker, self._worker = self._worker, None
        if worker is None:
            return
        worker.join()
        self._outcome.raise_error(self)
        exitcode = _exitcode(worker)
        if exitcode:
            raise RuntimeError(f'{type(self).__name__}: the process writing '
                               f'a snapshot failed (exit code {exitcode})')

    def finalize(self):
        """Wait for the last snapshot to be written."""
        self._join()


class ThreadWriter(StandardWriter):
    """Writer that saves each snapshot in a new thread."""

    def create_worker(self, filename, outdir, target, **kwds):
        return threading.Thread(
            target=self._outcome.run,
            args=(self.save, filename, outdir, target, self._savefun),
            kwargs=kwds)


class ProcessWriter(StandardWriter):
    """Writer that saves each snapshot in a new process."""

    def create_worker(self, filename, outdir, target, **kwds):
        return multiprocessing.Process(
            target=self.save,
            args=(filename, outdir, target, self._savefun), kwargs=kwds)


class QueueWriter(Writer):
    """Base of writers that hand snapshots to one consumer (a thread or a
    process) through a queue, so that training never waits for a write.

    Args:
        savefun: ``savefun(path, target)`` (default
            :func:`~kusari.serializers.save_npz`).
        task: Callable ``task(filename, outdir, target)`` run by the
            consumer for each snapshot; by default it saves with
            ``savefun``.
    """

    def __init__(self, savefun=npz.save_npz, task=None):
        super().__init__()
        self._task = self.create_task(savefun) if task is None else task
        self._queue = None
        self._consumer = None

    def create_task(self, savefun):
        """The default task: an atomic save with ``savefun``."""
        return _SaveTask(self, savefun)

    def create_queue(self):
        """Return the queue the snapshots go through."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement create_queue')

    def create_consumer(self, q):
        """Return an unstarted thread or process running
        :meth:`consume` on ``q``."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement create_consumer')

    def __call__(self, filename, outdir, target):
        # Started at the first snapshot, so that a forked consumer sees
        # the writer as the snapshot extension configured it.
        if self._consumer is None:
            self._queue = self.create_queue()
            self._consumer = self.create_consumer(self._queue)
            self._consumer.start()
        self._queue.put((self._queued_task(), filename, outdir, target))

    def _queued_task(self):
        """The task an item of the queue carries: the task itself, where
        the consumer shares this process."""
        return self._task

    def consume(self, q):
        """Run each item ``(task, filename, outdir, target)`` of ``q`` as
        ``task(filename, outdir, target)`` until None arrives (a task of
        None is this writer's own task); a failed task does not stop the
        others, and the first failure is raised at the end."""
        first_error = None
        while True:
            item = q.get()
            try:
                if item is None:
                    break
                task = self._task if item[0] is None else item[0]
                task(*item[1:])
            except Exception as error:
                first_error = first_error or error
            finally:
                q.task_done()
        if first_error is not None:
            raise first_error

    def finalize(self):
        """Write what is queued, then stop the consumer."""
        if self._consumer is None:
            return
        self._queue.put(None)
        self._queue.join()
        self._consumer.join()
        exitcode = _exitcode(self._consumer)
        self._consumer = self._queue = None
        if exitcode:
            raise RuntimeError(f'{type(self).__name__}: the process writing '
                               f'snapshots failed (exit code {exitcode})')


class _SaveTask:
    """The default task of a queue writer: :meth:`Writer.save`."""

    def __init__(self, writer, savefun):
        self._writer = writer
        self._savefun = savefun

    def __call__(self, filename, outdir, target):
        self._writer.save(filename, outdir, target, self._savefun)


class ThreadQueueWriter(QueueWriter):
    """Queue writer whose consumer is a thread."""

    def __init__(self, savefun=npz.save_npz, task=None):
        super().__init__(savefun, task)
        self._outcome = _Outcome()

    def create_queue(self):
        return queue.Queue()

    def create_consumer(self, q):
        return threading.Thread(target=self._outcome.run,
                                args=(self.consume, q))

    def __call__(self, filename, outdir, target):
        self._outcome.raise_error(self)
        super().__call__(filename, outdir, target)

    def finalize(self):
        super().finalize()
        self._outcome.raise_error(self)


class ProcessQueueWriter(QueueWriter):
    """Queue writer whose consumer is a process."""

    def create_queue(self):
        return multiprocessing.JoinableQueue()

    def create_consumer(self, q):
        return multiprocessing.Process(target=self.consume, args=(q,))

    def _queued_task(self):
        # The consumer process has its own copy of the task, so the task
        # need not be picklable: the items say "your own task".
        return None
