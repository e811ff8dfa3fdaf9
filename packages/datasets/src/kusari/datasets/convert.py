"""Batch conversion: from a list of examples to arrays on a device.

A converter is called as ``converter(batch, device)`` by updaters and
evaluators. New-style converters are :class:`Converter` instances (made
with the :func:`converter` decorator) and receive a
:class:`~kusari.array.backend.Device` or None; any other callable is an
old-style converter and receives Chainer's legacy device argument (an int,
or None when there is no device). :func:`call_converter` makes that
distinction for the callers.
"""
import functools

import numpy

from kusari.array import backend


class Converter:
    """Base class of converters.

    A converter turns a batch (the list of examples an iterator returns)
    into the arrays a model takes, and sends them to a device. Subclasses
    implement ``__call__(batch, device)``, where ``device`` is a
    :class:`~kusari.array.backend.Device` or None (leave arrays where they
    are).
    """

    def __call__(self, batch, device):
        raise NotImplementedError(
            f'{type(self).__name__} must implement __call__(batch, device)')


class _FunctionConverter(Converter):
    """A converter made from a function; it keeps the function's name and
    docstring, and passes any arguments through, the device (second
    positional or ``device=``) made a Device unless None."""

    def __init__(self, function):
        if not callable(function):
            raise TypeError(
                f'converter: expected a callable taking (batch, device), '
                f'got {type(function).__name__}')
        functools.update_wrapper(self, function)
        self._function = function

    def __call__(self, *args, **kwargs):
        if len(args) >= 2:
            args = (args[0], _device_or_none(args[1]), *args[2:])
        elif 'device' in kwargs:
            kwargs['device'] = _device_or_none(kwargs['device'])
        return self._function(*args, **kwargs)

    def __reduce__(self):
        # Pickled by name, like the function it replaces at module level.
        return self.__qualname__


def _device_or_none(device):
    return None if device is None else backend.get_device(device)


def converter():
    """Decorator that makes a :class:`Converter` from a function.

    The function takes ``(batch, device)`` (and may take more arguments);
    ``device`` is a :class:`~kusari.array.backend.Device` or None: a
    device specifier given to the converter (an int, ``'@numpy'``...) is
    turned into its Device first.
    Usage::

        @converter()
        def to_pairs(batch, device):
            ...
    """
    return _FunctionConverter


def call_converter(converter, batch, device):
    """Call ``converter`` on ``batch`` with the device argument its style
    expects (see the module docstring); ``device`` is a device specifier
    or None."""
    device = _device_or_none(device)
    if isinstance(converter, Converter):
        return converter(batch, device)
    if device is None:
        return converter(batch, None)
    if isinstance(device, backend.CpuDevice):
        return converter(batch, -1)
    if isinstance(device, backend.GpuDevice):
        return converter(batch, device.device.id)
    raise TypeError(
        f'call_converter: old-style converter {converter!r} takes an int '
        f'device id, which {device} does not have; make it a Converter '
        f'with the converter() decorator')


def to_device(device, x):
    """Send an array (or a list, tuple or dict of arrays) to a device.

    Args:
        device: None (leave ``x`` where it is), an int (negative for the
            CPU, else a GPU id), a specifier such as ``'@numpy'`` or
            ``'@cupy:0'``, or a :class:`~kusari.array.backend.Device`.
        x: The array.

    Returns:
        The array on ``device`` (``x`` itself if already there).
    """
    return backend.to_device(device, x)


def _check_shapes(where, arrays):
    """Raise a ValueError naming ``where`` if the shapes differ."""
    shapes = [numpy.shape(a) for a in arrays]
    odd = next((i for i, shape in enumerate(shapes) if shape != shapes[0]),
               None)
    if odd is not None:
        raise ValueError(
            f'concat_examples: {where} have different shapes: '
            f'example 0 has {shapes[0]}, example {odd} has {shapes[odd]}; '
            f'pass padding=<value> to pad them to a common shape')


def _concat_arrays(arrays, padding, where):
    """Stack arrays (or scalars, or lists) along a new first axis."""
    if padding is not None:
        return _concat_with_padding(
            [a if backend.is_array_supported(a) else numpy.asarray(a)
             for a in arrays],
            padding)
    try:
        if backend.get_array_module(arrays[0]) is not numpy:
            device = backend.get_device_from_array(arrays[0])
            with device.create_context():
                return device.xp.stack(arrays)
        # numpy.array stacks equal-shaped arrays twice as fast as stack.
        return numpy.array(arrays)
    except ValueError:
        _check_shapes(where, arrays)
        raise


def _concat_with_padding(arrays, padding):
    shape = numpy.max([a.shape for a in arrays], axis=0)
    device = backend.get_device_from_array(arrays[0])
    with device.create_context():
        result = device.xp.full((len(arrays), *shape), padding,
                                dtype=arrays[0].dtype)
        for i, array in enumerate(arrays):
            result[(i, *map(slice, array.shape))] = array
    return result


def _column(batch, key, first):
    try:
        return [example[key] for example in batch]
    except (IndexError, KeyError):
        raise ValueError(
            f'concat_examples: every example must have the structure of '
            f'the first one, {_structure(first)}; one has no element '
            f'{key!r}') from None


def _structure(example):
    if isinstance(example, tuple):
        return f'a tuple of {len(example)}'
    return f'a dict with keys {list(example)}'


def _map_structure(function, converted):
    """Apply ``function`` to each array of a converted batch."""
    if isinstance(converted, tuple):
        return tuple(map(function, converted))
    if isinstance(converted, dict):
        return {key: function(value) for key, value in converted.items()}
    return function(converted)


@converter()
def concat_examples(batch, device=None, padding=None):
    """Concatenate a list of examples into arrays and send them to a device.

    Each example is an array (or scalar), a tuple of them, or a dict of
    them; the result has the same structure with every element stacked
    along a new first axis, so a batch of ``(x, t)`` pairs becomes the
    pair of arrays ``(xs, ts)``.

    Args:
        batch (list): The examples, all of the same structure; not empty.
        device: Where to send the arrays (see :func:`to_device`); None
            leaves them on the device of the examples.
        padding: None to require equal shapes. Otherwise arrays are padded
            with this value to the largest shape in each dimension; a tuple
            (or dict) gives a value per tuple position (or key).

    Returns:
        An array, or a tuple or dict of arrays.
    """
    if len(batch) == 0:
        raise ValueError('concat_examples: the batch is empty')
    first = batch[0]
    if isinstance(first, tuple):
        if not isinstance(padding, tuple):
            padding = (padding,) * len(first)
        return tuple(
            to_device(device, _concat_arrays(
                _column(batch, i, first), padding[i],
                f'the arrays at tuple position {i}'))
            for i in range(len(first)))
    if isinstance(first, dict):
        if not isinstance(padding, dict):
            padding = dict.fromkeys(first, padding)
        return {
            key: to_device(device, _concat_arrays(
                _column(batch, key, first), padding[key],
                f'the arrays at key {key!r}'))
            for key in first}
    return to_device(device, _concat_arrays(batch, padding, 'the examples'))


class ConcatWithAsyncTransfer(Converter):
    """:func:`concat_examples` whose transfer to a GPU overlaps computation.

    Batches are concatenated on the host in pinned memory and copied to
    the GPU on a side ``stream``, so that the copy of the next batch runs
    while kernels of the current one do. With ``compute_stream``, the
    compute stream waits for the copy through a CUDA event and the host
    does not wait for it at all; without it, the host waits until the copy
    is done. On the CPU (``device`` None or the CPU) it is exactly
    :func:`concat_examples`.

    Args:
        stream (cupy.cuda.Stream): Stream of the copies; None creates a
            non-blocking one at the first call.
        compute_stream (cupy.cuda.Stream): Stream the model computes on.

    Every call must name the same device.
    """

    def __init__(self, stream=None, compute_stream=None):
        self.stream = stream
        self.compute_stream = compute_stream
        self._device = None
        self._used = False
        self._copy_done = None  # event: the last copies are complete
        self._compute_mark = None  # event on compute_stream, see __call__
        self._pinned = []  # host buffers of copies possibly in flight

    def __call__(self, batch, device=None, padding=None):
        """Concatenate ``batch`` as :func:`concat_examples` does and send
        it to ``device`` (a GPU id, specifier or Device; None or the CPU
        leave it on the host)."""
        if device is not None:
            device = backend.get_device(device)
        if self._used and device != self._device:
            raise ValueError(
                f'ConcatWithAsyncTransfer: called with device {device}, '
                f'but it was first called with {self._device}; use one '
                f'instance per device')
        self._device, self._used = device, True
        if not isinstance(device, backend.GpuDevice):
            return concat_examples(batch, device, padding)
        host = concat_examples(batch, None, padding)
        with device.device:
            return self._transfer(device.xp, host)

    def _transfer(self, cupy, host):
        if self.stream is None:
            self.stream = cupy.cuda.Stream(non_blocking=True)
        if self._copy_done is None:
            self._copy_done = cupy.cuda.Event()
            self._compute_mark = cupy.cuda.Event()
        # Pinned buffers of the previous call are free once its copies end.
        self._copy_done.synchronize()
        if self.compute_stream is not None:
            # Device memory freed by the previous batch may be reused now:
            # wait for the computation queued before the previous call.
            self._compute_mark.synchronize()
            self._compute_mark.record(self.compute_stream)
        self._pinned = []
        result = _map_structure(
            lambda array: self._copy_async(cupy, array), host)
        self._copy_done.record(self.stream)
        if self.compute_stream is None:
            self.stream.synchronize()
        else:
            self.compute_stream.wait_event(self._copy_done)
        return result

    def _copy_async(self, cupy, array):
        array = numpy.ascontiguousarray(array)
        memory = cupy.cuda.alloc_pinned_memory(array.nbytes)
        pinned = numpy.frombuffer(memory, array.dtype, array.size)
        pinned = pinned.reshape(array.shape)
        pinned[...] = array
        self._pinned.append(memory)
        with self.stream:
            result = cupy.empty(array.shape, array.dtype)
        result.set(pinned, stream=self.stream)
        return result
