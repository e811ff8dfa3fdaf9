"""A failing process ends the whole job, with its traceback; a missing or
mismatched communication ends it with an error naming the call."""
import time

import pytest

import _jobs

SCRIPT = _jobs.HERE / '_failing.py'


def _run(*arguments, env=None):
    start = time.monotonic()
    job = _jobs.run(2, [SCRIPT, *arguments], timeout=30, env=env)
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
