"""How the C library's malloc keeps the memory of freed NumPy arrays.

A training step allocates and frees arrays of the same sizes step after
step. glibc's malloc serves an allocation above its mmap threshold with
fresh pages of its own mapping, and gives free memory at the top of its
heap beyond its trim threshold back to the system; either way the next
array of that size is written to new pages, one page fault per 4 KiB.
glibc raises both thresholds as it frees mapped chunks (the mmap threshold
up to 32 MiB, the trim threshold to twice it), but arrays freed together
at the end of a step still leave the heap top trimmed: bench/attention.py
took 2,600 page faults per step, 6 of its 28 ms of CPU time per step (20
ms without them).

:func:`keep_freed_memory`, called when :mod:`kusari.array` is imported,
sets both thresholds where glibc's own raising stops: arrays up to 32 MiB
come from the heap, and up to 64 MiB of free memory at its top stays with
the process for the next step. A user who sets malloc through the
environment (``MALLOC_TRIM_THRESHOLD_``, ``MALLOC_MMAP_THRESHOLD_``,
``MALLOC_TOP_PAD_``, ``MALLOC_MMAP_MAX_`` or ``GLIBC_TUNABLES``) keeps
those settings; other C libraries are left alone.
"""
import ctypes
import os

# The largest mmap threshold glibc sets itself (DEFAULT_MMAP_THRESHOLD_MAX
# on 64-bit systems); the trim threshold is twice it, as glibc sets it.
MMAP_THRESHOLD = 32 << 20
TRIM_THRESHOLD = 2 * MMAP_THRESHOLD
_M_TRIM_THRESHOLD = -1  # mallopt's parameters, from glibc's malloc.h
_M_MMAP_THRESHOLD = -3
_USER_SETTINGS = ('MALLOC_TRIM_THRESHOLD_', 'MALLOC_MMAP_THRESHOLD_',
                  'MALLOC_TOP_PAD_', 'MALLOC_MMAP_MAX_', 'GLIBC_TUNABLES')


def keep_freed_memory():
    """Set glibc's mmap threshold to :data:`MMAP_THRESHOLD` and its trim
    threshold to :data:`TRIM_THRESHOLD`, unless the environment sets
    malloc or the C library is not glibc.

    Returns:
        bool: whether both were set.
    """
    if not _is_glibc() or any(name in os.environ
                              for name in _USER_SETTINGS):
        return False
    mallopt = ctypes.CDLL(None).mallopt
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
                and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))


def _is_glibc():
    try:
        return os.confstr('CS_GNU_LIBC_VERSION') is not None
    except (AttributeError, ValueError, OSError):  # no confstr, or no name
        return False
