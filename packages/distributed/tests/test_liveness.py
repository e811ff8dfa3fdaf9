"""Watching the processes of other ranks (a child process stands in for
one)."""
import os
import signal
import subprocess
import sys

import pytest

from kusari.distributed.communicators import _liveness

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith('linux'), reason='reads /proc: Linux only')


def _sleeper():
    return subprocess.Popen([sys.executable, '-c',
                             'import time; time.sleep(60)'])


@pytest.fixture
def child():
    process = _sleeper()
    yield process
    process.kill()
    process.wait()


def test_a_rank_is_lost_once_its_process_ends(child):
    pid, start = child.pid, _liveness._stat(child.pid)[1]
    peers = _liveness.Peers({3: (pid, start)})
    assert peers.lost() is None
    child.send_signal(signal.SIGKILL)
    # Killed, not yet reaped by its parent (a zombie), then reaped.
    os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    assert _liveness._stat(pid) == (True, start)
    assert peers.lost() == (3, pid)
    child.wait()
    assert peers.lost() == (3, pid)


def test_a_process_not_seen_as_the_rank_is_not_watched(child):
    # Another start time (an id reused, or from another process
    # namespace) or no /proc: never reported lost.
    start = _liveness._stat(child.pid)[1]
    peers = _liveness.Peers({1: (child.pid, start + b'0'),
                             2: (child.pid, None)})
    child.kill()
    child.wait()
    assert peers.lost() is None


def test_one_rank_is_read_a_call_in_turn(child):
    other = _sleeper()
    peers = _liveness.Peers({rank: (process.pid,
                                    _liveness._stat(process.pid)[1])
                             for rank, process in ((1, child), (2, other))})
    other.kill()
    other.wait()
    seen = [peers.lost() for _ in range(4)]
    assert seen == [None, (2, other.pid)] * 2


def test_identity_is_this_process_with_its_start_time():
    pid, start = _liveness.identity()
    assert _liveness._stat(pid) == (False, start)
