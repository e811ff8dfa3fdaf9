"""Drawing status lines that are redrawn in place on a terminal.

Elsewhere (a file, a CI log, a notebook) no escape code is written: the
extensions print plain lines instead.
"""
import collections
import time

CLEAR = '\033[J'


def is_terminal(out):
    """Whether ``out`` is an interactive terminal, where escape codes
    move the cursor."""
    isatty = getattr(out, 'isatty', None)
    return bool(isatty is not None and isatty())


def bar(rate, length):
    """A ``[####....]`` bar filled to ``rate`` (0 to 1)."""
    rate = min(max(rate, 0.), 1.)
    filled = int(length * rate)
    return '[' + '#' * filled + '.' * (length - filled) + ']'


def draw(out, lines):
    """Write ``lines`` below the cursor, then move the cursor back up, so
    that the next draw replaces them."""
    out.write(CLEAR + ''.join(line + '\n' for line in lines))
    out.write(f'\033[{len(lines)}A')
    out.flush()


class Speed:
    """Iterations per second over the recent calls."""

    def __init__(self, window=100):
        self._recent = collections.deque(maxlen=window)

    def update(self, count):
        """Record that ``count`` iterations are done now; return the speed
        since the oldest recorded call (inf when no time has passed)."""
        now = time.perf_counter()
        self._recent.append((count, now))
        old_count, old_time = self._recent[0]
        if now == old_time:
            return float('inf')
        return (count - old_count) / (now - old_time)
