"""Starting real MPI jobs from the tests: ``mpiexec`` from the environment
of the running interpreter (the ``mpich`` wheel puts it beside it), on
this machine only, each job bounded by a timeout."""
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
MPIEXEC = Path(sys.executable).parent / 'mpiexec'
# Seconds a job may take; a collective waits at most TIMEOUT of _checks.py.
JOB_TIMEOUT = 120


def environment(**extra):
    """One BLAS thread per process (the machine has two cores)."""
    env = dict(os.environ, OMP_NUM_THREADS='1', OPENBLAS_NUM_THREADS='1',
               MKL_NUM_THREADS='1', PYTHONUNBUFFERED='1')
    env.update(extra)
    return env


def run(n, arguments, timeout=JOB_TIMEOUT, env=None, options=()):
    """Run ``mpiexec [OPTIONS] -n n python ARGUMENTS``; the completed
    process.

    A job still running after ``timeout`` seconds is killed, and the test
    fails with what it printed.
    """
    if not MPIEXEC.exists():
        pytest.fail(f'{MPIEXEC} is missing: the mpich wheel should install '
                    f'it beside the interpreter')
    command = [str(MPIEXEC), '-launcher', 'fork', *options, '-n', str(n),
               sys.executable, *map(str, arguments)]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=env or environment(), start_new_session=True)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        pytest.fail(f'{" ".join(command)} did not end within {timeout} s\n'
                    f'--- stdout\n{out}\n--- stderr\n{err}')
    return subprocess.CompletedProcess(command, process.returncode, out,
                                       err)


def run_checks(n, names=()):
    """Run the checks of _checks.py in one job of ``n`` processes: a dict
    of check name to the list of ``(rank, traceback)`` that failed (a rank
    that did not report a check reported by another counts as failed),
    and the job."""
    with tempfile.TemporaryDirectory() as directory:
        job = run(n, [HERE / '_checks.py', directory, *names])
        reports = {}
        for rank in range(n):
            path = Path(directory) / f'rank{rank}.jsonl'
            lines = path.read_text().splitlines() if path.exists() else []
            for line in lines:
                record = json.loads(line)
                reports.setdefault(record['check'], {})[rank] = \
                    record['error']
    outcomes = {}
    for name, by_rank in reports.items():
        outcomes[name] = [
            (rank, by_rank.get(rank, 'no report: the process ended'))
            for rank in range(n) if by_rank.get(rank, True)]
    return outcomes, job
