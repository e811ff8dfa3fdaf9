"""Chainer's ``chainer.backends.cuda``: CuPy helpers that work without CuPy.

Importing this module never imports CuPy. The names ``cupy``, ``cupyx``,
``available``, ``ndarray``, ``Device``, ``Event`` and ``Stream`` are
resolved on first access (PEP 562). Where CuPy or a GPU is missing,
``available`` is False, ``cupy`` and ``cupyx`` are sentinels (so
``xp is cuda.cupy`` is False), and the classes are placeholders no object
is an instance of. Everything that needs a GPU then raises RuntimeError
saying why.
"""
import contextlib
import functools
import importlib
import numbers
import warnings

import numpy

from kusari.array import backend, lazy_cupy

#: cuDNN support: always False, as CuPy 14 ships no cuDNN bindings.
cudnn_enabled = False

_CUPY_CLASSES = {
    'ndarray': lambda cupy: cupy.ndarray,
    'Device': lambda cupy: cupy.cuda.Device,
    'Event': lambda cupy: cupy.cuda.Event,
    'Stream': lambda cupy: cupy.cuda.Stream,
}


class _Unavailable:
    """Stands for a CuPy module or class while CuPy is unusable."""

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f'<unavailable {self._name}>'


def _placeholder_class(name):
    return type(name, (), {
        '__module__': __name__,
        '__doc__': 'Placeholder while CuPy is unusable: no object is an '
                   'instance of it.'})


def __getattr__(name):
    if name == 'available':
        value = lazy_cupy.cupy_or_none() is not None
    elif name in ('cupy', 'cupyx'):
        value = (_Unavailable(name) if lazy_cupy.cupy_or_none() is None
                 else importlib.import_module(name))
    elif name in _CUPY_CLASSES:
        cupy = lazy_cupy.cupy_or_none()
        value = (_placeholder_class(name) if cupy is None
                 else _CUPY_CLASSES[name](cupy))
    else:
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    # CuPy's availability never changes within a process: resolve once.
    globals()[name] = value
    return value


def check_cuda_available():
    """Raise RuntimeError, saying why, unless CuPy and a GPU are usable."""
    lazy_cupy.require_cupy()


class DummyDeviceType:
    """The "device" of host arrays: a no-op stand-in for
    ``cupy.cuda.Device`` so that ``with get_device_from_array(x):`` works
    for NumPy arrays too."""

    id = -1

    def __int__(self):
        return -1

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def use(self):
        """Do nothing (there is no host device to switch to)."""

    def synchronize(self):
        """Do nothing (host computation is synchronous)."""

    def __eq__(self, other):
        return isinstance(other, DummyDeviceType)

    def __hash__(self):
        return hash(DummyDeviceType)

    def __repr__(self):
        return '<DummyDevice>'


#: The single :class:`DummyDeviceType` instance.
DummyDevice = DummyDeviceType()


def _is_int(value):
    return isinstance(value, numbers.Integral) and not isinstance(
        value, (bool, numpy.bool_))


def get_device_from_id(device_id):
    """Return ``cupy.cuda.Device(device_id)``, or :data:`DummyDevice` for
    None or a negative id."""
    if device_id is None:
        return DummyDevice
    if not _is_int(device_id):
        raise TypeError(
            f'get_device_from_id: expected an int device id or None, got '
            f'{device_id!r}')
    if device_id < 0:
        return DummyDevice
    return lazy_cupy.require_cupy().cuda.Device(int(device_id))


def get_device_from_array(*arrays):
    """Return the ``cupy.cuda.Device`` of the first CuPy array given, or
    :data:`DummyDevice` if there is none."""
    for array in arrays:
        if lazy_cupy.is_cupy_array(array):
            return array.device
    return DummyDevice


def get_device(*args):
    """Return the CUDA device named by the first argument that names one.

    Deprecated: use :func:`get_device_from_id` or
    :func:`get_device_from_array`. An int (``>= 0``), a CuPy array or a
    ``cupy.cuda.Device`` names a device; if no argument does, the result is
    :data:`DummyDevice`.
    """
    warnings.warn(
        'cuda.get_device is deprecated; use cuda.get_device_from_id or '
        'cuda.get_device_from_array', DeprecationWarning, stacklevel=2)
    return _get_cuda_device(*args)


def _get_cuda_device(*args):
    cupy = lazy_cupy.imported_cupy()
    for arg in args:
        if _is_int(arg):
            return get_device_from_id(arg)
        if lazy_cupy.is_cupy_array(arg):
            return arg.device
        if isinstance(arg, backend.GpuDevice):
            return arg.device
        if cupy is not None and isinstance(arg, cupy.cuda.Device):
            return arg
    return DummyDevice


def get_device_or_current(device):
    """The ``cupy.cuda.Device`` that ``device`` names (None: the current).

    Accepts None, an int >= 0, a ``cupy.cuda.Device`` or a GpuDevice.
    """
    cupy = lazy_cupy.require_cupy()
    if device is None:
        return cupy.cuda.Device()
    if isinstance(device, cupy.cuda.Device):
        return device
    if isinstance(device, backend.GpuDevice):
        return device.device
    if _is_int(device) and device >= 0:
        return cupy.cuda.Device(int(device))
    raise ValueError(
        f'to_gpu: invalid CUDA device {device!r}; expected None, an int '
        f'>= 0, a cupy.cuda.Device or a GpuDevice')


def _stream_scope(stream, caller):
    """A context making ``stream`` current; the argument is deprecated."""
    if stream is None:
        return contextlib.nullcontext()
    warnings.warn(
        f'the stream argument of cuda.{caller} is deprecated; make the '
        f'stream current with "with stream:" instead', DeprecationWarning,
        stacklevel=3)
    return stream


def to_gpu(array, device=None, stream=None):
    """Copy an array, or a (nested) list, tuple or dict of arrays, to a GPU.

    Args:
        array: NumPy or CuPy array, NumPy scalar, None, or a list, tuple or
            dict of them. A CuPy array already on ``device`` is returned as is.
        device: None (the current device), an int device id, a
            ``cupy.cuda.Device`` or a GpuDevice.
        stream: Deprecated; the CUDA stream to copy on.

    Returns:
        The CuPy array(s), in the same structure; None stays None.
    """
    gpu = backend.GpuDevice(get_device_or_current(device))
    with _stream_scope(stream, 'to_gpu'):
        return backend._map_arrays(
            functools.partial(_array_to_gpu, gpu), array)


def _array_to_gpu(gpu, array):
    if isinstance(array, numpy.generic):
        array = numpy.asarray(array)
    if not (isinstance(array, numpy.ndarray)
            or lazy_cupy.is_cupy_array(array)):
        raise TypeError(
            f'to_gpu: expected a NumPy or CuPy array, a NumPy scalar, None, '
            f'or a list or tuple of them; got {type(array).__name__}')
    return gpu.send_array(array)


def to_cpu(array, stream=None):
    """Copy an array, or a (nested) list, tuple or dict of arrays, to the
    host.

    Args:
        array: CuPy or NumPy array, scalar, None, or a list, tuple or dict
            of them. NumPy arrays are returned as they are; scalars become
            0-dimensional arrays.
        stream: Deprecated; the CUDA stream to copy on.

    Returns:
        The NumPy array(s), in the same structure; None stays None.
    """
    with _stream_scope(stream, 'to_cpu'):
        return backend._map_arrays(_array_to_cpu, array)


def _array_to_cpu(array):
    if isinstance(array, numpy.ndarray):
        return array
    if lazy_cupy.is_cupy_array(array):
        with array.device:
            return array.get()
    if isinstance(array, (numbers.Number, numpy.generic)):
        return numpy.asarray(array)
    raise TypeError(
        f'to_cpu: expected a NumPy or CuPy array, a scalar, None, or a list '
        f'or tuple of them; got {type(array).__name__}')


def copy(array, out=None, out_device=None, stream=None):
    """Copy a CuPy array, possibly to another GPU.

    Args:
        array (cupy.ndarray): The array to copy.
        out (cupy.ndarray): Destination; if given, ``out_device`` is
            ignored.
        out_device: Where to allocate the copy when ``out`` is None: an int
            device id, a ``cupy.cuda.Device`` or a CuPy array (default: the
            device of ``array``).
        stream: Deprecated; the CUDA stream to copy on.

    Returns:
        cupy.ndarray: The copy (``out`` if given).
    """
    cupy = lazy_cupy.require_cupy()
    if not isinstance(array, cupy.ndarray):
        raise TypeError(
            f'copy: array must be a cupy.ndarray, got {type(array).__name__}')
    if out is not None and not isinstance(out, cupy.ndarray):
        raise TypeError(
            f'copy: out must be a cupy.ndarray or None, got '
            f'{type(out).__name__}')
    if out is None:
        target = array.device if out_device is None else _get_cuda_device(
            out_device)
        if target is DummyDevice:
            raise ValueError(
                f'copy: out_device must name a GPU, got {out_device!r}')
        with target:
            out = cupy.empty_like(array)
    with _stream_scope(stream, 'copy'), out.device:
        # ndarray.copy() copies to the current device, also across GPUs.
        source = array if array.device == out.device else array.copy()
        cupy.copyto(out, source)
    return out


def get_array_module(*args):
    """``cupy`` if any argument is a CuPy array (or a Variable of one), else
    ``numpy``; the same as :func:`kusari.array.backend.get_array_module`."""
    return backend.get_array_module(*args)


_memo_caches = []


def _current_device_id():
    """The current CUDA device id, or -1 where CuPy is not in use."""
    if lazy_cupy.imported_cupy() is None or lazy_cupy.cupy_or_none() is None:
        return -1
    return lazy_cupy.imported_cupy().cuda.runtime.getDevice()


def memoize(for_each_device=False):
    """Decorator caching a function's result per arguments.

    The arguments (positional and keyword) must be hashable. With
    ``for_each_device``, results are also kept apart per current CUDA
    device (kernels are loaded per device). :func:`clear_memo` empties
    every cache.
    """
    def decorator(func):
        cache = {}
        _memo_caches.append(cache)

        @functools.wraps(func)
        def memoized(*args, **kwargs):
            key = (args, tuple(sorted(kwargs.items())))
            if for_each_device:
                key = (_current_device_id(),) + key
            if key not in cache:
                cache[key] = func(*args, **kwargs)
            return cache[key]
        return memoized
    return decorator


def clear_memo():
    """Forget the results of every function decorated by :func:`memoize`."""
    for cache in _memo_caches:
        cache.clear()


@memoize(for_each_device=True)
def elementwise(in_params, out_params, operation, name, **kwargs):
    """A ``cupy.ElementwiseKernel``, built once per arguments and device."""
    return lazy_cupy.require_cupy().ElementwiseKernel(
        in_params, out_params, operation, name, **kwargs)


@memoize(for_each_device=True)
def reduce(in_params, out_params, map_expr, reduce_expr, post_map_expr,
           identity, name, **kwargs):
    """A ``cupy.ReductionKernel``, built once per arguments and device."""
    return lazy_cupy.require_cupy().ReductionKernel(
        in_params, out_params, map_expr, reduce_expr, post_map_expr,
        identity, name, **kwargs)


@memoize(for_each_device=True)
def raw(code, name, *args, **kwargs):
    """A ``cupy.RawKernel``, built once per arguments and device."""
    return lazy_cupy.require_cupy().RawKernel(code, name, *args, **kwargs)


_DEFAULT_MAX_WORKSPACE_SIZE = 8 * 1024 * 1024
_workspace = {'max_size': _DEFAULT_MAX_WORKSPACE_SIZE}


def get_max_workspace_size():
    """The cuDNN workspace limit in bytes (default 8 MiB); kept for
    compatibility, as Kusari's CuPy has no cuDNN."""
    return _workspace['max_size']


def set_max_workspace_size(size):
    """Set the cuDNN workspace limit in bytes (an int >= 0)."""
    if not _is_int(size) or size < 0:
        raise ValueError(
            f'set_max_workspace_size: expected an int >= 0 (bytes), got '
            f'{size!r}')
    _workspace['max_size'] = int(size)


def fuse(*args, **kwargs):
    """Decorator fusing an elementwise function into one kernel on GPU.

    Usable as ``@fuse`` or ``@fuse(kernel_name=...)``. Called with CuPy
    arrays, the function runs as ``cupy.fuse`` makes it (built on first
    use); called with anything else (NumPy arrays, scalars) it runs as
    plain Python.
    """
    if len(args) == 1 and not kwargs and callable(args[0]):
        return _fusing(args[0], {})
    if args:
        raise TypeError(
            f'fuse: expected a function, or keyword options only, got '
            f'positional arguments {args!r}')
    return functools.partial(_fusing, options=kwargs)


def _fusing(func, options):
    fused = []

    @functools.wraps(func)
    def call(*args):
        if backend.get_array_module(*args) is numpy:
            return func(*args)
        if not fused:
            fused.append(lazy_cupy.require_cupy().fuse(**options)(func))
        return fused[0](*args)
    return call
