"""Ending the whole MPI job when one process fails.

An uncaught exception ends its own process, but the others would wait for
it in their next communication for ever (or until the timeout). The hook
prints the traceback, prefixed with the process's rank, waits a moment
for the launcher to forward it (``MPI_Abort`` kills the forwarding
process too, and a traceback still in its pipe is lost), then calls
``MPI_Abort``, which makes ``mpiexec`` end every process of the job. It is
installed at import where the environment variable
``CHAINERMN_FORCE_ABORT_ON_EXCEPTION`` (or
``KUSARI_FORCE_ABORT_ON_EXCEPTION``) is set to a non-empty value.
"""
import os
import sys
import time
import traceback

_VARIABLES = ('CHAINERMN_FORCE_ABORT_ON_EXCEPTION',
              'KUSARI_FORCE_ABORT_ON_EXCEPTION')
# Seconds the launcher gets to forward the traceback before the abort
# (0.5 lost it about once in 15 runs on a busy two-core machine).
_FORWARD_SECONDS = 2.0


def _abort_on_exception(exception_type, value, trace):
    from mpi4py import MPI
    rank = MPI.COMM_WORLD.Get_rank()
    text = ''.join(traceback.format_exception(exception_type, value, trace))
    sys.stdout.flush()
    sys.stderr.write(f'Uncaught exception on rank {rank}; aborting the MPI '
                     f'job.\n{text}')
    abort_job(MPI.COMM_WORLD)


def abort_job(mpi_comm):
    """Abort the MPI job of ``mpi_comm`` once what this process wrote had
    time to reach the launcher (an abort drops what it has not
    forwarded)."""
    sys.stdout.flush()
    sys.stderr.flush()
    time.sleep(_FORWARD_SECONDS)
    mpi_comm.Abort(1)


def add_hook():
    """Make an uncaught exception in this process abort the whole MPI job
    (after printing its traceback), instead of leaving the other
    processes waiting."""
    sys.excepthook = _abort_on_exception


def add_hook_if_requested():
    """:func:`add_hook` if an environment variable asks for it."""
    if any(os.environ.get(name) for name in _VARIABLES):
        add_hook()
