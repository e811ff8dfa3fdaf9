"""Reusable work arrays for the patch matrices of convolutions.

A convolution's patch matrix (im2col) is large, tens of MB for a batch of
images, and lives only from a forward pass to its backward pass. Allocated
afresh every step, it comes from the operating system as new pages, which
the kernel maps and zeroes on first touch: for a 37 MB matrix that took
4 ms of a 6 ms im2col on one core (the copy itself, 2 ms). The pool keeps
such arrays and hands one out again once nothing refers to it any more
(its reference count says so), so a training loop reuses the same few.

Only NumPy arrays are pooled (CuPy has a memory pool of its own), only
from 1 MiB up (smaller ones come from the C heap, already reused), and at
most 1 GiB in all: beyond that, free arrays of other sizes are dropped
first, and then arrays are allocated as usual.
"""
import sys
import threading

import numpy

_MIN_BYTES = 1 << 20
_MAX_BYTES = 1 << 30


def _refcounts(buffers):
    """``sys.getrefcount`` of each of ``buffers`` (a list), as seen from
    here: the pool reads them only through this function."""
    counts = []
    for buffer in buffers:
        counts.append(sys.getrefcount(buffer))
    return counts


# The count of a buffer that only the pool's list holds, measured by this
# interpreter (what the loop and the call add differs between Python
# versions, which may borrow references instead of taking them).
_UNUSED_REFCOUNT = _refcounts([numpy.empty(1, numpy.uint8)])[0]

_lock = threading.Lock()
_buffers = {}  # size in bytes: list of 1-d uint8 arrays of that size
_pooled_bytes = 0


def empty(xp, shape, dtype):
    """An uninitialized C-contiguous array of ``xp`` (NumPy or CuPy),
    drawn from the pool where it is a large NumPy one."""
    dtype = numpy.dtype(dtype)
    nbytes = dtype.itemsize
    for length in shape:
        nbytes *= length
    if xp is not numpy or nbytes < _MIN_BYTES:
        return xp.empty(shape, dtype)
    with _lock:
        buffer = _unused(nbytes)
    if buffer is None:
        return numpy.empty(shape, dtype)
    return buffer.view(dtype).reshape(shape)


def _unused(nbytes):
    """A pooled buffer of ``nbytes`` no one refers to, a new one if the
    pool may grow by it, else None (called with the lock held)."""
    global _pooled_bytes
    same_size = _buffers.setdefault(nbytes, [])
    for buffer, count in zip(same_size, _refcounts(same_size)):
        if count == _UNUSED_REFCOUNT:
            return buffer
    if _pooled_bytes + nbytes > _MAX_BYTES:
        _drop_unused()
        if _pooled_bytes + nbytes > _MAX_BYTES:
            return None
    buffer = numpy.empty(nbytes, numpy.uint8)
    same_size.append(buffer)
    _pooled_bytes += nbytes
    return buffer


def _drop_unused():
    """Forget every pooled buffer no one refers to (lock held)."""
    global _pooled_bytes
    for nbytes, buffers in _buffers.items():
        kept = [buffer for buffer, count in zip(buffers, _refcounts(buffers))
                if count > _UNUSED_REFCOUNT]
        _pooled_bytes -= nbytes * (len(buffers) - len(kept))
        buffers[:] = kept
