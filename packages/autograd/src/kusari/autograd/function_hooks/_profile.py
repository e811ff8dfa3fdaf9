"""What the profiling hooks share: measuring each function application
without what nested applications inside it took, and reporting per
function."""
import sys

from kusari.array import lazy_cupy
from kusari.autograd import function_hook
from kusari.autograd.function import FunctionAdapter


def impl_name(function):
    """The name profiles group by: the class of the function, or of the
    old-style Function behind a FunctionAdapter."""
    if isinstance(function, FunctionAdapter):
        function = function.function
    return type(function).__name__


def cupy_array_module(arrays):
    """cupy if one of ``arrays`` (None entries allowed) is a CuPy array,
    else None."""
    for array in arrays:
        if lazy_cupy.is_cupy_array(array):
            return lazy_cupy.imported_cupy()
    return None


def require_cupy(hook_name):
    """cupy, or a RuntimeError saying ``hook_name`` needs it."""
    try:
        return lazy_cupy.require_cupy()
    except RuntimeError as error:
        raise RuntimeError(
            f'{hook_name} requires CuPy and a CUDA GPU: {error}') from None


def choose_unit(value, units):
    """The largest of ``units`` (name, size) not larger than ``value``;
    the smallest one for values below all."""
    for name, size in units:
        if value >= size:
            return name, size
    return units[-1]


class ProfileHook(function_hook.FunctionHook):
    """Base of hooks measuring quantities per function application.

    Subclasses name the quantities in :attr:`quantities`, their report
    columns in :attr:`columns` and units in :attr:`units` (largest first),
    and implement :meth:`_start` (before the computation) and
    :meth:`_stop` (after it, returning one value per quantity). When a
    function applies others inside its forward or backward, their
    measurements are taken out of its own, so that nothing counts twice.

    Attributes:
        call_history: a list of ``(function name, *quantities)`` tuples,
            one per application, in the order the applications finished.
    """

    quantities = ()
    columns = ()
    units = ()

    def __init__(self):
        self.call_history = []
        # One frame per application in progress:
        # [function id, start token, quantities of nested applications].
        self._running = []

    def forward_preprocess(self, function, in_data):
        self._push(function, in_data)

    def forward_postprocess(self, function, in_data):
        self._pop(function)

    def backward_preprocess(self, function, in_data, out_grad):
        self._push(function, in_data + out_grad)

    def backward_postprocess(self, function, in_data, out_grad):
        self._pop(function)

    def _push(self, function, arrays):
        nested = [0] * len(self.quantities)
        self._running.append([id(function), self._start(arrays), nested])

    def _pop(self, function):
        frame = self._running.pop()
        # A frame left by an application that raised lies above ours.
        while frame[0] != id(function) and self._running:
            frame = self._running.pop()
        _, start, nested = frame
        total = self._stop(start)
        if self._running:
            outer = self._running[-1][2]
            for i, value in enumerate(total):
                outer[i] += value
        own = tuple(t - n for t, n in zip(total, nested))
        self.call_history.append((impl_name(function),) + own)

    def _start(self, arrays):
        raise NotImplementedError

    def _stop(self, start):
        raise NotImplementedError

    def _totals(self):
        return tuple(sum(entry[i + 1] for entry in self.call_history)
                     for i in range(len(self.quantities)))

    def summary(self):
        """Per function name: the summed quantities and the number of
        applications (``'occurrence'``), in order of first appearance."""
        result = {}
        for name, *values in self.call_history:
            record = result.get(name)
            if record is None:
                record = result[name] = dict.fromkeys(self.quantities, 0)
                record['occurrence'] = 0
            for key, value in zip(self.quantities, values):
                record[key] += value
            record['occurrence'] += 1
        return result

    def _formatter(self, unit, summary):
        """A function formatting one quantity in ``unit``."""
        unit_names = [name for name, _ in self.units]
        if unit == 'auto':
            largest = max((record[key] for record in summary.values()
                           for key in self.quantities), default=0)
            fixed = choose_unit(largest, self.units)
        elif unit == 'auto_foreach':
            fixed = None
        elif unit in unit_names:
            fixed = self.units[unit_names.index(unit)]
        else:
            raise ValueError(
                f'{type(self).__name__}.print_report: unit must be '
                f"'auto', 'auto_foreach' or one of {', '.join(unit_names)}; "
                f'got {unit!r}')

        def format_value(value):
            name, size = fixed or choose_unit(value, self.units)
            return f'{value / size:.2f}{name}'
        return format_value

    def print_report(self, unit='auto', file=None):
        """Print a table of :meth:`summary`, one row per function.

        Args:
            unit: the unit of the quantities: one of :attr:`units`,
                ``'auto'`` (one unit fitting the largest value) or
                ``'auto_foreach'`` (a unit per value).
            file: where to print; ``sys.stdout`` by default.
        """
        summary = self.summary()
        format_value = self._formatter(unit, summary)
        rows = [('FunctionName',) + self.columns + ('Occurrence',)]
        for name, record in summary.items():
            rows.append((name,) + tuple(
                format_value(record[key]) for key in self.quantities)
                + (str(record['occurrence']),))
        widths = [max(len(row[i]) for row in rows)
                  for i in range(len(rows[0]))]
        out = sys.stdout if file is None else file
        for row in rows:
            print('  '.join(cell.rjust(width)
                            for cell, width in zip(row, widths)), file=out)
