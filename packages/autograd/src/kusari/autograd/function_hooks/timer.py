"""Elapsed time of every function application."""
import time

from kusari.autograd.function_hooks import _profile


class TimerHook(_profile.ProfileHook):
    """Measures the time each function's forward and backward take.

    On the CPU it reads :func:`time.perf_counter`; where the arrays are on a
    GPU it records CUDA events around the computation and waits for the
    second, so the time is that of the kernels, not of their launch. The
    time of functions applied inside another's forward or backward is not
    counted in the outer one.

    Attributes:
        call_history: ``(function name, seconds)`` per application.
    """

    name = 'TimerHook'
    quantities = ('elapsed_time',)
    columns = ('ElapsedTime',)
    units = (('sec', 1), ('ms', 1e-3), ('us', 1e-6), ('ns', 1e-9))

    def _start(self, arrays):
        cupy = _profile.cupy_array_module(arrays)
        if cupy is None:
            return None, time.perf_counter()
        start = cupy.cuda.Event()
        start.record()
        return cupy, start

    def _stop(self, start):
        cupy, begin = start
        if cupy is None:
            return time.perf_counter() - begin,
        stop = cupy.cuda.Event()
        stop.record()
        stop.synchronize()
        return cupy.cuda.get_elapsed_time(begin, stop) / 1000,

    def total_time(self):
        """The time of all applications recorded, in seconds."""
        return self._totals()[0]
