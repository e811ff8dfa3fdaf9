"""Polling MPI requests (in one process: the tests stand in for them)."""
import time

import pytest

from kusari.distributed.communicators import _deadline


class _Communicator:
    rank, size, mpi_comm = 0, 2, None
    timeout = 600.0
    lost = None     # what _lost_rank() gives

    def get_config(self, name):
        assert name == 'timeout'
        return self.timeout

    def _lost_rank(self):
        return self.lost


def test_poll_spins_then_yields_the_core(monkeypatch):
    yields = []
    monkeypatch.setattr(_deadline, '_yield',
                        lambda: yields.append(time.monotonic()))
    tests = []

    def soon():
        tests.append(None)
        return len(tests) > 5 and 'done'

    # Done within the first tests: the core is never yielded.
    assert _deadline.poll(soon, _Communicator(), 'call') == 'done'
    assert yields == []
    # Done later: it spins first, then yields between tests (until
    # _YIELD_SECONDS, here long enough for any load).
    monkeypatch.setattr(_deadline, '_YIELD_SECONDS', 30.0)
    start = time.monotonic()
    assert _deadline.poll(lambda: len(yields) >= 3, _Communicator(), 'call')
    assert yields[0] - start >= _deadline._SPIN_SECONDS


def _lost_communicator(monkeypatch):
    """A communicator whose rank 1 (process 4242) has ended, and the list
    of communicators whose job would be aborted at exit."""
    aborted = []
    monkeypatch.setattr(_deadline, '_abort_at_exit', aborted.append)
    communicator = _Communicator()
    communicator.lost = (1, 4242)
    communicator.timeout = 5.0      # unless the loss is seen first
    return communicator, aborted


def test_poll_raises_naming_a_rank_that_ended(monkeypatch, capsys):
    communicator, aborted = _lost_communicator(monkeypatch)
    tests = []

    def never():
        tests.append(None)
        return False

    with pytest.raises(_deadline.RankLost) as raised:
        _deadline.poll(never, communicator, 'allreduce')
    message = ('allreduce on rank 0 of 2 cannot complete: the process of '
               'rank 1 (process id 4242, on this machine) has ended')
    assert str(raised.value).startswith(message)
    # Said at once too: the launcher may kill this process before the
    # traceback is printed.
    assert capsys.readouterr().err.startswith(
        f'kusari.distributed: {message}')
    assert aborted == [None]
    # Watched only once the first spin is over.
    assert len(tests) > _deadline._TESTS_AFTER_LOSS + \
        _deadline._TESTS_PER_CLOCK_READ


def test_poll_completes_what_an_ended_rank_left_complete(monkeypatch,
                                                          capsys):
    # The rank sent its share and ended before this one tested: the
    # request completes, and nothing is raised.
    communicator, aborted = _lost_communicator(monkeypatch)
    watched = []
    communicator._lost_rank = lambda: watched.append(None) or (1, 4242)
    assert _deadline.poll(lambda: bool(watched), communicator, 'bcast')
    assert aborted == [] and capsys.readouterr().err == ''
