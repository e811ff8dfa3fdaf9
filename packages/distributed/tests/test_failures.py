"""A failing process ends the whole job, with its traceback; a missing or
mismatched communication ends it with an error naming the call; a killed
process ends the job within seconds, named."""
import re
import tempfile
import time
from pathlib import Path

import pytest

import _jobs

SCRIPT = _jobs.HERE / '_failing.py'


def _run(*arguments, env=None, n=2, options=()):
    start = time.monotonic()
    job = _jobs.run(n, [SCRIPT, *arguments], timeout=30, env=env,
                    options=options)
    return job, time.monotonic() - start


@pytest.mark.parametrize('how', ['add_hook', 'environment'])
def test_exception_in_one_rank_aborts_the_job(how):
    # The other rank waits in a broadcast with a 60 s timeout: only the
    # hook's MPI_Abort can end the job within the 30 s allowed.
    if how == 'add_hook':
        job, _ = _run('raise', 60, 'hook')
    else:
        job, _ = _run('raise', 60, env=_jobs.environment(
            CHAINERMN_FORCE_ABORT_ON_EXCEPTION='1'))
    assert job.returncode != 0
    assert 'Uncaught exception on rank 1' in job.stderr
    assert 'ValueError: failure on purpose' in job.stderr


@pytest.mark.parametrize('mode', ['missing', 'mismatched'])
def test_unmatched_communication_times_out_naming_the_call(mode):
    # Rank 1 would wait 20 s: rank 0's timeout after 2 s ends the job.
    job, seconds = _run(mode, 2)
    assert job.returncode != 0
    assert 'CommunicationTimeout: allreduce on rank 0 of 2 did not ' \
        'complete within 2 s' in job.stderr, job.stderr
    assert seconds < 15


def test_killed_rank_ends_the_job_naming_it():
    # Rank 1 of two is killed in the middle of training while rank 0 waits
    # for it in an allreduce (with the default timeout of 600 s): mpiexec
    # ends the job within 10 s, naming the lost process by its id and,
    # with -print-all-exitcodes, its rank by the place of its exit code 9
    # (SIGKILL). (With more ranks mpiexec's cleanup may report another
    # rank it killed first; the ranks get no chance to say more.)
    with tempfile.TemporaryDirectory() as directory:
        record = Path(directory) / 'killed'
        job, _ = _run('kill', 600, record,
                      options=['-print-all-exitcodes'])
        ended = time.time()
        pid, killed_at = record.read_text().split()
    assert job.returncode != 0
    output = job.stdout + job.stderr
    assert ended - float(killed_at) < 10, output
    assert f'PID {pid} RUNNING AT' in output, output
    assert 'Killed (signal 9)' in output, output
    codes = re.search(r'Exit codes: \[[^]]*\] ([\d,]+)', output)
    assert codes and codes.group(1) == '0,9', output
