"""Worker processes that read dataset examples for MultiprocessIterator.

Each worker has its own pipe: the parent sends it ``(task id, indices)``
and it answers ``(task id, ok, examples or error)``, pickled. Knowing which
tasks each worker holds lets the parent tell, when a worker's process
ends, whether examples were lost, and say which. The parent waits on the
pipes and on the processes' sentinels together, so a dead worker is seen
at once and a hanging one after ``worker_timeout``: never a silent hang.

Workers start with multiprocessing's default start method. Under ``fork``
the dataset is shared with the workers copy-on-write; under ``spawn`` and
``forkserver`` it is pickled to each of them.
"""
import itertools
import multiprocessing
import pickle
import signal
import time
import traceback
import warnings
from multiprocessing import connection

import numpy

from kusari.datasets.iterators import _prefetch

_JOIN_GRACE = 1.0  # seconds an exiting worker gets before it is killed


def _worker_main(dataset, conn, max_tasks, inherited):
    for other in inherited:
        other.close()  # so that closing its pipe reaches every worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles ^C
    numpy.random.seed()  # forked workers must not share random streams
    done = 0
    try:
        while max_tasks is None or done < max_tasks:
            message = conn.recv()
            if message is None:
                return
            task_id, indices = message
            try:
                reply = (task_id, True, [dataset[i] for i in indices])
                payload = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
            except Exception as error:
                payload = pickle.dumps(
                    (task_id, False, _describe(error)),
                    pickle.HIGHEST_PROTOCOL)
            conn.send_bytes(payload)
            done += 1
    except (EOFError, OSError):
        return  # the parent closed the pipe


def _describe(error):
    """An exception as ``(exception or None, type name, message,
    traceback text)``; the exception itself only if it survives pickling."""
    text = ''.join(traceback.format_exception(error))
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        error_or_none = None
    else:
        error_or_none = error
    return error_or_none, type(error).__name__, str(error), text


class _RemoteTraceback(Exception):
    """Carries a worker's traceback as the cause of the re-raised error."""

    def __str__(self):
        return self.args[0]


class _Failure:
    """A task whose examples raised in the worker."""

    def __init__(self, description):
        self.description = description

    def exception(self):
        error, type_name, message, text = self.description
        if error is None:
            error = RuntimeError(
                f'{type_name}: {message} (raised in a MultiprocessIterator '
                f'worker; the exception could not be pickled)')
        error.__cause__ = _RemoteTraceback(
            f'\nin a MultiprocessIterator worker:\n"""\n{text}"""')
        return error


class _Worker:
    """The parent's handle on one worker process."""

    def __init__(self, process, conn):
        self.process = process
        self.conn = conn
        self.pending = {}  # task id -> indices, sent and not answered
        self.assigned = 0


def _abbreviate(indices, limit=10):
    shown = ', '.join(map(str, indices[:limit]))
    return f'[{shown}, ...]' if len(indices) > limit else f'[{shown}]'


class ProcessPool:
    """A loader (see ``_prefetch``) on ``n_processes`` worker processes.

    Workers start at the first batch and after :meth:`close`, at the next
    one. A worker that has done ``max_tasks`` chunks exits and another
    takes its place. While waiting for a batch, ``stall_warning`` is
    issued after ``dataset_timeout`` seconds and TimeoutError raised after
    ``worker_timeout`` (either may be None); a worker that dies raises
    RuntimeError. Both stop all workers first.
    """

    def __init__(self, dataset, n_processes, max_tasks, dataset_timeout,
                 worker_timeout, stall_warning):
        self._dataset = dataset
        self._n_processes = n_processes
        self._max_tasks = max_tasks
        self._dataset_timeout = dataset_timeout
        self._worker_timeout = worker_timeout
        self._stall_warning = stall_warning
        self._task_ids = itertools.count()
        self._workers = []  # taking tasks
        self._retiring = []  # at max_tasks, finishing their last chunks
        self._wanted = set()  # task ids of batches not cancelled
        self._results = {}  # task id -> examples or _Failure

    @property
    def pids(self):
        """Process ids of the running workers."""
        return [w.process.pid for w in self._workers + self._retiring]

    # -- the loader interface --------------------------------------------

    def submit(self, indices):
        if not self._workers:
            self._start()
        task_ids = []
        for chunk in _prefetch.split_evenly(indices.tolist(),
                                            self._n_processes):
            task_id = next(self._task_ids)
            worker = min(self._workers, key=lambda w: len(w.pending))
            worker.pending[task_id] = chunk
            try:
                worker.conn.send((task_id, chunk))
            except OSError:
                pass  # it died; result() sees it exit and reports
            worker.assigned += 1
            if worker.assigned == self._max_tasks:
                self._retire(worker)
            task_ids.append(task_id)
        self._wanted.update(task_ids)
        return task_ids

    def result(self, task_ids):
        self._wait_for(task_ids)
        outcomes = [self._results.pop(i) for i in task_ids]
        self._wanted.difference_update(task_ids)
        batch = []
        for outcome in outcomes:
            if isinstance(outcome, _Failure):
                raise outcome.exception()
            batch += outcome
        return batch

    def cancel(self, task_ids):
        self._wanted.difference_update(task_ids)
        for task_id in task_ids:
            self._results.pop(task_id, None)

    def close(self):
        """Stop every worker: idle ones are asked to exit, busy ones (whose
        results nobody wants any more) terminated; any left after a grace
        period are killed."""
        workers = self._workers + self._retiring
        self._workers, self._retiring = [], []
        self._wanted.clear()
        self._results.clear()
        for worker in workers:
            if worker.pending:
                worker.process.terminate()
            else:
                try:
                    worker.conn.send(None)
                except OSError:
                    pass
            worker.conn.close()
        deadline = time.monotonic() + _JOIN_GRACE
        for worker in workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
        for worker in workers:
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()

    # -- workers ---------------------------------------------------------

    def _start(self):
        try:
            for _ in range(self._n_processes):
                self._workers.append(self._spawn())
        except BaseException:
            self.close()
            raise

    def _spawn(self):
        context = multiprocessing.get_context()
        parent_end, child_end = context.Pipe()
        inherited = []
        if context.get_start_method() == 'fork':
            inherited = [parent_end] + [
                w.conn for w in self._workers + self._retiring]
        process = context.Process(
            target=_worker_main, name='MultiprocessIterator-worker',
            args=(self._dataset, child_end, self._max_tasks, inherited),
            daemon=True)
        try:
            process.start()
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            parent_end.close()
            raise TypeError(
                f'MultiprocessIterator: the dataset cannot be sent to the '
                f'worker processes of the '
                f'{context.get_start_method()!r} start method, which '
                f'pickle it: {error}') from error
        finally:
            child_end.close()
        return _Worker(process, parent_end)

    def _retire(self, worker):
        self._workers.remove(worker)
        self._retiring.append(worker)
        self._workers.append(self._spawn())

    # -- waiting ---------------------------------------------------------

    def _wait_for(self, task_ids):
        start = time.monotonic()
        warned = False
        while not all(i in self._results for i in task_ids):
            elapsed = time.monotonic() - start
            deadlines = []
            if self._dataset_timeout is not None and not warned:
                if elapsed >= self._dataset_timeout:
                    warnings.warn(
                        f'MultiprocessIterator: stalled dataset: no batch '
                        f'after {elapsed:.1f} s (dataset_timeout='
                        f'{self._dataset_timeout}); get_example may be '
                        f'slow or hanging', self._stall_warning,
                        stacklevel=4)
                    warned = True
                else:
                    deadlines.append(self._dataset_timeout - elapsed)
            if self._worker_timeout is not None:
                if elapsed >= self._worker_timeout:
                    self._raise_hang(task_ids, elapsed)
                deadlines.append(self._worker_timeout - elapsed)
            self._receive(min(deadlines) if deadlines else None)

    def _receive(self, timeout):
        workers = self._workers + self._retiring
        by_conn = {w.conn: w for w in workers}
        by_sentinel = {w.process.sentinel: w for w in workers}
        ready = connection.wait(list(by_conn) + list(by_sentinel), timeout)
        for obj in ready:
            if obj in by_conn:
                self._drain(by_conn[obj])
        for obj in ready:
            if obj in by_sentinel:
                self._on_exit(by_sentinel[obj])

    def _take_replies(self, worker):
        """Take every reply waiting in the worker's pipe; return whether
        the pipe has ended (the worker is exiting)."""
        try:
            while worker.conn.poll():
                task_id, ok, payload = pickle.loads(worker.conn.recv_bytes())
                del worker.pending[task_id]
                if task_id in self._wanted:
                    self._results[task_id] = payload if ok \
                        else _Failure(payload)
        except (EOFError, OSError):
            return True
        return False

    def _drain(self, worker):
        if self._take_replies(worker):
            worker.process.join(_JOIN_GRACE)
            self._on_exit(worker)

    def _on_exit(self, worker):
        """A worker's process has ended: a retired worker that answered
        all its tasks leaves; any other end is an error."""
        known = worker in self._workers or worker in self._retiring
        if not known or worker.process.is_alive():
            return
        self._take_replies(worker)
        if worker in self._retiring and not worker.pending:
            self._retiring.remove(worker)
            worker.conn.close()
            return
        self._raise_death(worker)

    def _raise_death(self, worker):
        code = worker.process.exitcode
        if code < 0:
            how = f'was killed by signal {signal.Signals(-code).name}'
        else:
            how = f'exited with code {code}'
        lost = [i for chunk in worker.pending.values() for i in chunk]
        what = f'while loading examples {_abbreviate(lost)}' if lost \
            else 'while idle'
        pid = worker.process.pid
        self.close()
        raise RuntimeError(
            f'MultiprocessIterator: worker process {pid} {how} {what}. '
            f'The dataset may have ended it (a crash or os._exit in '
            f'get_example / __getitem__), or the system did (out of '
            f'memory?). All workers were stopped; the iterator did not '
            f'advance, and the next batch asked for starts new workers.')

    def _raise_hang(self, task_ids, elapsed):
        waiting = set(task_ids) - set(self._results)
        stuck = [w for w in self._workers + self._retiring
                 if waiting & set(w.pending)]
        indices = [i for w in stuck for task_id, chunk in w.pending.items()
                   if task_id in waiting for i in chunk]
        pids = [w.process.pid for w in stuck]
        self.close()
        raise TimeoutError(
            f'MultiprocessIterator: no result for examples '
            f'{_abbreviate(indices)} after {elapsed:.1f} s (worker_timeout='
            f'{self._worker_timeout}); worker process(es) {pids} seem to '
            f'hang in the dataset\'s get_example / __getitem__ (a '
            f'deadlock, or a library that hangs after fork, such as '
            f'OpenCV: try MultithreadIterator, or '
            f'multiprocessing.set_start_method("forkserver")). All workers '
            f'were stopped.')
