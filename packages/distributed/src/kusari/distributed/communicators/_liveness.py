"""Whether the other ranks on this machine still run, so that a rank
waiting for one that was killed (by the out-of-memory killer, say) or
that ended learns it within milliseconds, and names it, instead of waiting
out the timeout.

A process is known by its id and its start time (both from Linux's
``/proc``): an id reused by a later process, or seen from another process
namespace, does not pass for the rank. Where ``/proc`` is missing nothing
is watched, and a lost rank shows as a timeout.
"""
import itertools
import os


# The kernel flags a process as exiting as it begins to tear it down: for
# a process the size of a rank some 10 ms before it turns zombie (its
# memory is unmapped first), which is about when a launcher sees its pipes
# close and kills the other ranks.
_PF_EXITING = 0x4


def _stat(pid):
    """``(ending, start time)`` of process ``pid`` from
    ``/proc/<pid>/stat``: whether it is exiting or has exited (a zombie
    its parent has not reaped), and its start time (bytes); None where it
    has no entry (it ended and was reaped, or ``/proc`` is missing)."""
    try:
        with open(f'/proc/{pid}/stat', 'rb') as stat:
            text = stat.read()
    except OSError:
        return None
    # The command name, in parentheses, may hold spaces: count the fields
    # from the last parenthesis (state is field 3, flags field 9, start
    # time field 22).
    fields = text[text.rindex(b')') + 2:].split()
    ending = fields[0] in (b'Z', b'X') or bool(int(fields[6]) & _PF_EXITING)
    return ending, fields[19]


def identity():
    """This process's ``(pid, start time)``; the start time is None where
    ``/proc`` is missing."""
    pid = os.getpid()
    stat = _stat(pid)
    return pid, stat and stat[1]


class Peers:
    """The processes of other ranks on this machine.

    Args:
        identities: ``{rank: identity()}`` of the other ranks, gathered
            while they ran; those this process cannot see as such (no
            ``/proc``, another namespace) are left unwatched.
    """

    def __init__(self, identities):
        watched = [(rank, pid, start)
                   for rank, (pid, start) in sorted(identities.items())
                   if start is not None and _running(pid, start)]
        self._turns = itertools.cycle(watched) if watched else None

    def lost(self):
        """``(rank, pid)`` of the next watched rank in turn (one read of
        ``/proc`` a call, however many ranks share the machine) if its
        process is ending or has ended, else None."""
        if self._turns is None:
            return None
        rank, pid, start = next(self._turns)
        return None if _running(pid, start) else (rank, pid)


def _running(pid, start):
    return _stat(pid) == (False, start)
