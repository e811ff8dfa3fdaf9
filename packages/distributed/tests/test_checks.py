"""Every check of _checks.py, in one job each of 1, 2 and 3 processes."""
import pytest

import _checks
import _jobs


def _names(size):
    return [name for name, (_, sizes) in _checks.CHECKS.items()
            if size in sizes]


@pytest.fixture(scope='module')
def jobs():
    return {}


def _outcome(jobs, size, name):
    if size not in jobs:
        jobs[size] = _jobs.run_checks(size)
    outcomes, job = jobs[size]
    if name not in outcomes:
        pytest.fail(f'check {name} did not report (the job ended with '
                    f'{job.returncode})\n--- stdout\n{job.stdout}\n'
                    f'--- stderr\n{job.stderr}')
    return outcomes[name]


@pytest.mark.parametrize('size,name', [
    (size, name) for size in (1, 2, 3) for name in _names(size)])
def test_check(jobs, size, name):
    failures = _outcome(jobs, size, name)
    assert not failures, '\n'.join(
        f'--- rank {rank}\n{error}' for rank, error in failures)
