"""Packing many arrays into one contiguous buffer, so that a model's
gradients (or parameters) travel in one message per call instead of one
per parameter, and unpacking the buffer back into them."""
import numpy

from kusari.array import backend


def named_grads(model, zero_fill):
    """``(path, param)`` of the parameters whose gradients are exchanged.

    Uninitialized parameters are skipped. With ``zero_fill``, a parameter
    without a gradient (unused in the last backward) gets a zero one, so
    every rank sends the same layout; without it, such a parameter is
    skipped.
    """
    entries = []
    for path, param in model.namedparams(include_uninit=False):
        if zero_fill:
            grad_or_zeros(param)
        if param.grad is not None:
            entries.append((path, param))
    return entries


def grad_or_zeros(param):
    """The gradient of ``param``; a zero one, made its gradient, where it
    has none."""
    if param.grad is None:
        param.grad = _new_like(param.array, zeros=True)
    return param.grad


def writable_grads(params):
    """The arrays to write the mean gradients of ``params`` into: each
    parameter's own gradient, in place, where it is an array of its own
    (as ChainerMN writes the means); else a new array, made its gradient.

    A gradient is not written in place where backward left a view (of
    another array, or a read-only broadcast), the array of an earlier
    parameter's gradient, or a variable in a graph (double backprop):
    writing it would change what else holds it.
    """
    grads, seen = [], set()
    for param in params:
        grad = param.grad
        if grad is None or id(grad) in seen or not _owned(param):
            grad = _new_like(param.array)
            param.grad = grad
        seen.add(id(grad))
        grads.append(grad)
    return grads


def _owned(param):
    """Whether the gradient of ``param`` is an array that it alone holds,
    writable in place."""
    grad = param.grad
    return (grad.base is None and grad.flags.c_contiguous
            and getattr(grad.flags, 'writeable', True)
            and param.grad_var.creator_node is None)


def _new_like(array, zeros=False):
    """An array of ``array``'s shape and dtype on its device: zeros, or
    uninitialized."""
    xp = backend.get_array_module(array)
    with backend.get_device_from_array(array):
        return (xp.zeros_like if zeros else xp.empty_like)(array)


def layout(names, arrays):
    """The ``(name, shape, dtype name)`` of each array: what must agree
    across ranks for their buffers to line up."""
    return [(name, tuple(a.shape), numpy.dtype(a.dtype).name)
            for name, a in zip(names, arrays)]


class Buffers:
    """Two reusable flat buffers, handed out in turn: the one being
    reduced and the one being filled, when communication overlaps the next
    step (double buffering)."""

    def __init__(self):
        self._buffers = [None, None]
        self._next = 0

    def take(self, xp, size, dtype):
        """A flat buffer of ``size`` elements of ``dtype`` from ``xp``,
        reused when the last one taken from this slot fits."""
        slot = self._next
        self._next = 1 - slot
        self._buffers[slot] = reuse(self._buffers[slot], xp, size, dtype)
        return self._buffers[slot]


def reuse(buffer, xp, size, dtype):
    """``buffer`` where it is a flat array of ``size`` elements of
    ``dtype`` from ``xp``; else a new one."""
    if buffer is None or buffer.size != size or buffer.dtype != dtype \
            or backend.get_array_module(buffer) is not xp:
        buffer = xp.empty(size, dtype)
    return buffer


def pack(arrays, buffer, scale=None):
    """Copy ``arrays`` one after another into the flat ``buffer``, cast to
    its dtype (and to its device, where they differ), multiplied by
    ``scale`` on the way if given."""
    to_buffer = _mover(buffer)
    xp = backend.get_array_module(buffer)
    offset = 0
    for array in arrays:
        size = array.size
        segment = buffer[offset:offset + size]
        source = to_buffer(array).ravel()
        if scale is None:
            segment[...] = source
        else:
            xp.multiply(source, scale, out=segment)
        offset += size
    return buffer


def unpack(buffer, arrays):
    """Copy the consecutive segments of the flat ``buffer`` into
    ``arrays``, in place, cast to their dtype (and to their device, where
    they differ)."""
    offset = 0
    for array in arrays:
        size = array.size
        backend.copyto(array, buffer[offset:offset + size].reshape(
            array.shape))
        offset += size


def copy_over(sources, outputs=None):
    """Copy each of ``sources`` into its array of ``outputs``, where that
    is another array (the means over one rank: ``finish`` of
    ``_start_grad_mean``)."""
    for source, output in zip(sources, outputs or ()):
        if output is not source:
            backend.copyto(output, source)


def unpacked_after(wait, buffer):
    """``finish(outputs=None)``: ``wait()``, then the flat ``buffer``
    unpacked into ``outputs`` where given (the function that
    ``_start_grad_mean`` of the communicators returns)."""
    def finish(outputs=None):
        wait()
        if outputs is not None:
            unpack(buffer, outputs)
    return finish


def _mover(buffer):
    """The function that brings an array to ``buffer``'s device."""
    device = backend.get_device_from_array(buffer)
    return device.send
