"""A failing process ends the whole job, with its traceback; a missing or
mismatched communication ends it with an error naming the call; a killed
process ends the job within seconds, named."""
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


@pytest.mark.parametrize('options', [[], ['-disable-auto-cleanup']])
def test_killed_rank_ends_the_job_naming_it(options):
    # Rank 1 of two is killed (SIGKILL, as the out-of-memory killer does)
    # in the middle of training while rank 0 waits for it (with the
    # default timeout of 600 s). Rank 0 sees it as the kernel begins to
    # tear rank 1 down, says so naming it, and raises RankLost; some
    # milliseconds later mpiexec sees rank 1 end and kills rank 0 (also
    # with -disable-auto-cleanup, after a SIGUSR1), most often before the
    # traceback is printed: the line said at once is what shows. (mpiexec
    # names a lost process too, but in about 1 run in 30 the wrong one.)
    with tempfile.TemporaryDirectory() as directory:
        record = Path(directory) / 'killed'
        job, _ = _run('kill', 600, record, options=options)
        ended = time.time()
        pid, killed_at = record.read_text().split()
    output = job.stdout + job.stderr
    assert job.returncode != 0, output
    assert ended - float(killed_at) < 10, output
    assert f'kusari.distributed: multi_node_mean_grad on rank 0 of 2 ' \
        f'cannot complete: the process of rank 1 (process id {pid}, on ' \
        f'this machine) has ended' in output, output
