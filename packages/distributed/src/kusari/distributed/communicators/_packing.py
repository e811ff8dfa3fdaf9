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
        if param.grad is None:
            if not zero_fill:
                continue
            array = param.array
            with backend.get_device_from_array(array):
                param.grad = backend.get_array_module(array).zeros_like(
                    array)
        entries.append((path, param))
    return entries


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
        buffer = self._buffers[slot]
        if buffer is None or buffer.size != size or buffer.dtype != dtype \
                or backend.get_array_module(buffer) is not xp:
            buffer = xp.empty(size, dtype)
            self._buffers[slot] = buffer
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


def unpack(buffer, params, attribute):
    """Write the consecutive segments of ``buffer`` into the ``attribute``
    (``'grad'`` or ``'array'``) of each parameter, in its dtype and on its
    device; a parameter whose gradient is None gets a new array."""
    offset = 0
    for param in params:
        target = getattr(param, attribute)
        reference = param.array
        size = reference.size
        segment = buffer[offset:offset + size].reshape(reference.shape)
        offset += size
        if target is None:
            device = backend.get_device_from_array(reference)
            setattr(param, attribute,
                    device.send(segment).astype(reference.dtype, copy=True))
        else:
            backend.copyto(target, segment)


def _mover(buffer):
    """The function that brings an array to ``buffer``'s device."""
    device = backend.get_device_from_array(buffer)
    return device.send
