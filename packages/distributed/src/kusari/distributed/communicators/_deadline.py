"""Waiting for MPI operations with a deadline, so that a missing or
mismatched call ends in an error naming it instead of a hang.

Every communication of the communicators is started nonblocking and
completed here by polling (MPI moves a collective on only while it is
tested, as a blocking call would spin): first by spinning for 0.2 ms,
then until 50 ms by spinning that yields the core between tests to any
process waiting for it (on a loaded machine, most often the other rank
this one waits for), then by sleeping with a growing pause (a rank
waiting long for a slower one leaves the core to it). The limit is the
communicator's ``'timeout'`` configuration, by default the environment
variable ``KUSARI_DISTRIBUTED_TIMEOUT`` in seconds, else 600. Past the
first spin, every millisecond of waiting also checks that another rank on
this machine still runs (each in turn): one that ended (killed, say) can
never make its call, and the wait raises :class:`RankLost` naming it.
"""
import atexit
import os
import sys
import time

from kusari.distributed import global_except_hook

ENVIRONMENT_VARIABLE = 'KUSARI_DISTRIBUTED_TIMEOUT'
DEFAULT_TIMEOUT = 600.0
_SPIN_SECONDS = 2e-4
_YIELD_SECONDS = 0.05
_TESTS_PER_CLOCK_READ = 20
_yield = getattr(os, 'sched_yield', lambda: time.sleep(0))
_WATCH_SECONDS = 1e-3
_LONGEST_PAUSE = _WATCH_SECONDS
# Tests left to a request once a rank it waits for is seen to have ended:
# what that rank sent before it ended may still complete it.
_TESTS_AFTER_LOSS = 100


class CommunicationTimeout(TimeoutError):
    """A communication did not complete within the communicator's timeout:
    another rank did not make the matching call."""


class RankLost(RuntimeError):
    """A communication cannot complete: the process of another rank on
    this machine has ended (killed, or exited) without making its call."""


def default_timeout():
    """The timeout in seconds from the environment, else the default."""
    text = os.environ.get(ENVIRONMENT_VARIABLE, '').strip()
    if not text:
        return DEFAULT_TIMEOUT
    try:
        return check_timeout(float(text), ENVIRONMENT_VARIABLE)
    except ValueError:
        raise ValueError(
            f'{ENVIRONMENT_VARIABLE} must be a positive number of seconds, '
            f'got {text!r}') from None


def check_timeout(value, name='timeout'):
    """``value`` as a positive float, or a ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not value > 0:
        raise ValueError(
            f'{name} must be a positive number of seconds, got {value!r}')
    return float(value)


def poll(test, communicator, call):
    """Call ``test()`` until it returns something true, and return that.

    Raises:
        CommunicationTimeout: naming ``call`` and the rank, when the
            communicator's timeout passes first.
        RankLost: naming the rank, when a rank on this machine ends first.
    """
    result = test()
    if result:
        return result
    start = time.monotonic()
    watch_at = _SPIN_SECONDS
    # MPI progresses a nonblocking collective only inside the calls that
    # test it: spin first, as a blocking call would, then yield the core
    # between tests (another process then runs where one waits for it).
    while True:
        for _ in range(_TESTS_PER_CLOCK_READ):
            result = test()
            if result:
                return result
        waited = time.monotonic() - start
        if waited >= _YIELD_SECONDS:
            break
        if waited >= watch_at:
            result = _unless_lost(test, communicator, call)
            if result:
                return result
            watch_at = waited + _WATCH_SECONDS
        if waited >= _SPIN_SECONDS:
            _yield()
    timeout = communicator.get_config('timeout')
    pause = 1e-5
    while True:
        result = test()
        if result:
            return result
        if time.monotonic() - start > timeout:
            _abort_at_exit(communicator.mpi_comm)
            raise CommunicationTimeout(
                f'{call} on rank {communicator.rank} of {communicator.size} '
                f'did not complete within {timeout:g} s: another rank did '
                f'not make the matching call (a missing or mismatched '
                f'collective, or a send without its receive). Set the '
                f'limit with comm.set_config("timeout", seconds) or '
                f'{ENVIRONMENT_VARIABLE}.')
        # Sleeps of up to _WATCH_SECONDS: watched at every turn.
        result = _unless_lost(test, communicator, call)
        if result:
            return result
        time.sleep(pause)
        pause = min(pause * 2, _LONGEST_PAUSE)


def _unless_lost(test, communicator, call):
    """None while the rank on this machine watched this turn runs; where
    it has ended, what ``test()`` gives within :data:`_TESTS_AFTER_LOSS`
    more tries, else :class:`RankLost`.

    The message also goes to stderr at once: a launcher that ends the
    job on the loss of a process may kill this one before the exception's
    traceback is printed.
    """
    lost = communicator._lost_rank()
    if lost is None:
        return None
    for _ in range(_TESTS_AFTER_LOSS):
        result = test()
        if result:
            return result
    rank, pid = lost
    message = (f'{call} on rank {communicator.rank} of {communicator.size} '
               f'cannot complete: the process of rank {rank} (process id '
               f'{pid}, on this machine) has ended, killed or exited, '
               f'without making its call')
    print(f'kusari.distributed: {message}', file=sys.stderr, flush=True)
    _abort_at_exit(communicator.mpi_comm)
    raise RankLost(message)


def wait(requests, communicator, call):
    """Complete the MPI ``requests`` (one or a list) within the timeout."""
    if not isinstance(requests, list):
        return poll(requests.Test, communicator, call)
    from mpi4py import MPI
    return poll(lambda: MPI.Request.Testall(requests), communicator, call)


_aborting = []


def _abort_at_exit(mpi_comm):
    """After a timeout the operation is still pending and MPI_Finalize
    would wait for it for ever: make the process abort the job instead
    when it exits."""
    if not _aborting:
        _aborting.append(mpi_comm)
        # After the traceback of the timeout is printed.
        atexit.register(global_except_hook.abort_job, mpi_comm)
