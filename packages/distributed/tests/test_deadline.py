"""Polling MPI requests (in one process: the tests stand in for them)."""
import time

from kusari.distributed.communicators import _deadline


class _Communicator:
    rank, size, mpi_comm = 0, 1, None

    def get_config(self, name):
        assert name == 'timeout'
        return 600.0


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
