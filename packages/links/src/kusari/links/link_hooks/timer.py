"""Elapsed time of every link call."""
import sys
import time

from kusari.array import lazy_cupy
from kusari.links import link_hook

_UNITS = (('sec', 1), ('ms', 1e-3), ('us', 1e-6), ('ns', 1e-9))


def _unit_for(value):
    """The largest unit not larger than ``value`` (the smallest for
    values below all)."""
    for unit in _UNITS:
        if value >= unit[1]:
            return unit
    return _UNITS[-1]


def _cupy_of(args):
    for arg in args:
        array = getattr(arg, 'array', arg)
        if lazy_cupy.is_cupy_array(array):
            return lazy_cupy.imported_cupy()
    return None


class TimerHook(link_hook.LinkHook):
    """Measures the time each link's forward takes.

    A link's time includes that of the links it calls. On the CPU it reads
    :func:`time.perf_counter`; where the inputs are on a GPU it records CUDA
    events around the forward and waits for the second, so the time is that
    of the kernels.

    Attributes:
        call_history: ``(link class name, seconds)`` per call, in the order
            the calls finished.
    """

    name = 'TimerHook'

    def __init__(self):
        self.call_history = []
        self._running = []
        self._total = 0

    def forward_preprocess(self, args):
        cupy = _cupy_of(args.args)
        if cupy is None:
            self._running.append((None, time.perf_counter()))
            return
        start = cupy.cuda.Event()
        start.record()
        self._running.append((cupy, start))

    def forward_postprocess(self, args):
        cupy, start = self._running.pop()
        if cupy is None:
            elapsed = time.perf_counter() - start
        else:
            stop = cupy.cuda.Event()
            stop.record()
            stop.synchronize()
            elapsed = cupy.cuda.get_elapsed_time(start, stop) / 1000
        self.call_history.append((type(args.link).__name__, elapsed))
        if not self._running:
            self._total += elapsed

    def total_time(self):
        """The time of the outermost calls recorded, in seconds (a nested
        call is already inside its caller's time)."""
        return self._total

    def summary(self):
        """Per link class name: ``{'elapsed_time': seconds, 'occurrence':
        calls}``, in order of first appearance."""
        result = {}
        for name, elapsed in self.call_history:
            record = result.setdefault(
                name, {'elapsed_time': 0, 'occurrence': 0})
            record['elapsed_time'] += elapsed
            record['occurrence'] += 1
        return result

    def print_report(self, unit='auto', file=None):
        """Print :meth:`summary` as a table.

        Args:
            unit: ``'sec'``, ``'ms'``, ``'us'``, ``'ns'``, ``'auto'`` (one
                unit fitting the largest time) or ``'auto_foreach'`` (a
                unit per time).
            file: where to print; ``sys.stdout`` by default.
        """
        summary = self.summary()
        names = [name for name, _ in _UNITS]
        if unit == 'auto':
            fixed = _unit_for(max(
                (r['elapsed_time'] for r in summary.values()), default=0))
        elif unit == 'auto_foreach':
            fixed = None
        elif unit in names:
            fixed = _UNITS[names.index(unit)]
        else:
            raise ValueError(
                f"TimerHook.print_report: unit must be 'auto', "
                f"'auto_foreach' or one of {', '.join(names)}; got {unit!r}")
        rows = [('LinkName', 'ElapsedTime', 'Occurrence')]
        for name, record in summary.items():
            unit_name, size = fixed or _unit_for(record['elapsed_time'])
            rows.append((name,
                         f"{record['elapsed_time'] / size:.2f}{unit_name}",
                         str(record['occurrence'])))
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        out = sys.stdout if file is None else file
        for row in rows:
            print('  '.join(cell.rjust(width)
                            for cell, width in zip(row, widths)), file=out)
