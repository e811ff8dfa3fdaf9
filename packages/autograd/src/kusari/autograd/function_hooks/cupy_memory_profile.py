"""GPU memory taken by every function application."""
from kusari.autograd.function_hooks import _profile


class CupyMemoryProfileHook(_profile.ProfileHook):
    """Measures how CuPy's default memory pool grows over each function's
    forward and backward.

    ``used_bytes`` is the growth of the memory the pool hands out to
    arrays; ``acquired_bytes`` the growth of the memory the pool holds from
    the device (it stays at 0 while freed blocks are reused). Memory taken
    by functions applied inside another's forward or backward is not
    counted in the outer one.

    Raises:
        RuntimeError: when made where CuPy or a GPU is missing.

    Attributes:
        call_history: ``(function name, used_bytes, acquired_bytes)`` per
            application.
    """

    name = 'CupyMemoryProfileHook'
    quantities = ('used_bytes', 'acquired_bytes')
    columns = ('UsedBytes', 'AcquiredBytes')
    units = (('PB', 1024 ** 5), ('TB', 1024 ** 4), ('GB', 1024 ** 3),
             ('MB', 1024 ** 2), ('KB', 1024), ('B', 1))

    def __init__(self):
        super().__init__()
        self._pool = _profile.require_cupy(
            'CupyMemoryProfileHook').get_default_memory_pool()

    def _start(self, arrays):
        return self._pool.used_bytes(), self._pool.total_bytes()

    def _stop(self, start):
        used, acquired = start
        return (self._pool.used_bytes() - used,
                self._pool.total_bytes() - acquired)

    def total_used_bytes(self):
        """The bytes used by all applications recorded."""
        return self._totals()[0]

    def total_acquired_bytes(self):
        """The bytes acquired by all applications recorded."""
        return self._totals()[1]
