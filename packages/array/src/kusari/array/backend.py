"""Devices: where arrays live, and the array module (``xp``) computing them.

A device is made by :func:`get_device` from a specifier (``'@numpy'``,
``'@cupy:0'``, ``-1``, ``0``, a device object or a module). Every array of
NumPy lives on the one :class:`CpuDevice`; a CuPy array lives on the
:class:`GpuDevice` of its CUDA device. CuPy is imported only when a GPU
device is asked for.
"""
import contextlib
import sys
import threading

import numpy

from kusari.array import lazy_cupy

_modules = sys.modules


class Device:
    """A place where arrays live and are computed.

    Subclasses set :attr:`xp` (the array module) and
    :attr:`supported_array_types`, and implement :meth:`send_array`.
    """

    xp = None
    supported_array_types = ()
    name = None

    def __repr__(self):
        # Chainer's form, naming the array module.
        return f'<{type(self).__name__} ({self.xp.__name__})>'

    def __str__(self):
        return self.name

    def __eq__(self, other):
        raise NotImplementedError(
            f'{type(self).__name__} must define equality')

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self.name)

    def __reduce__(self):
        # A device is a value named by its specifier: copies and pickles
        # (of a Link or an optimizer on it) hold the specifier, not the
        # array module, which cannot be pickled.
        return get_device, (self.name,)

    def __enter__(self):
        context = self.create_context()
        _device_contexts().append(context)
        context.__enter__()
        return self

    def __exit__(self, *exc):
        return _device_contexts().pop().__exit__(*exc)

    def create_context(self):
        """A context manager that makes this device current."""
        return contextlib.nullcontext()

    def send_array(self, array):
        """Return ``array`` on this device (the same object if already
        here)."""
        raise NotImplementedError

    def send(self, arrays):
        """Send an array, or a (nested) list, tuple or dict of them."""
        return _map_arrays(self.send_array, arrays)

    def use(self):
        """Make this device the current one of its kind."""

    def is_array_supported(self, array):
        return isinstance(array, self.supported_array_types)


_local = threading.local()


def _device_contexts():
    stack = getattr(_local, 'contexts', None)
    if stack is None:
        stack = _local.contexts = []
    return stack


def _map_arrays(func, arrays):
    if isinstance(arrays, (list, tuple)):
        mapped = [_map_arrays(func, a) for a in arrays]
        return mapped if isinstance(arrays, list) else tuple(mapped)
    if isinstance(arrays, dict):
        return {k: _map_arrays(func, v) for k, v in arrays.items()}
    if arrays is None:
        return None
    return func(arrays)


class CpuDevice(Device):
    """The host: NumPy arrays."""

    xp = numpy
    supported_array_types = (numpy.ndarray,)
    name = '@numpy'

    def __eq__(self, other):
        return isinstance(other, CpuDevice)

    __hash__ = Device.__hash__

    @staticmethod
    def from_array(array):
        """The CpuDevice for a NumPy ``array``, or None for anything else
        (as :meth:`GpuDevice.from_array` for CuPy arrays)."""
        if isinstance(array, numpy.ndarray):
            return _CPU
        return None

    def send_array(self, array):
        if isinstance(array, numpy.ndarray):
            return array
        if isinstance(array, numpy.generic):
            return numpy.asarray(array)
        if lazy_cupy.is_cupy_array(array):
            return array.get()
        raise TypeError(
            f'CpuDevice.send_array: expected a NumPy or CuPy array, '
            f'got {type(array).__name__}')


_CPU = CpuDevice()


class GpuDevice(Device):
    """A CUDA GPU: CuPy arrays on one ``cupy.cuda.Device``."""

    def __init__(self, device):
        cupy = lazy_cupy.require_cupy()
        if not isinstance(device, cupy.cuda.Device):
            raise TypeError(
                f'GpuDevice: expected a cupy.cuda.Device, got '
                f'{type(device).__name__}')
        self.device = device
        self.xp = cupy
        self.supported_array_types = (cupy.ndarray,)
        self.name = f'@cupy:{device.id}'

    def __repr__(self):
        return f'<{type(self).__name__} (cupy):{self.device.id}>'

    @staticmethod
    def from_device_id(device_id):
        """The GpuDevice of CUDA device ``device_id`` (an int >= 0)."""
        if not isinstance(device_id, int) or isinstance(device_id, bool) \
                or device_id < 0:
            raise ValueError(
                f'GpuDevice.from_device_id: expected a CUDA device id '
                f'(int >= 0), got {device_id!r}')
        cupy = lazy_cupy.require_cupy()
        return GpuDevice(cupy.cuda.Device(device_id))

    @staticmethod
    def from_array(array):
        """The GpuDevice holding a CuPy ``array``, or None for other arrays."""
        if lazy_cupy.is_cupy_array(array):
            return GpuDevice.from_device_id(array.device.id)
        return None

    def __eq__(self, other):
        return isinstance(other, GpuDevice) and other.device == self.device

    __hash__ = Device.__hash__

    def create_context(self):
        return self.device

    def use(self):
        self.device.use()

    def send_array(self, array):
        cupy = self.xp
        if isinstance(array, cupy.ndarray) and array.device == self.device:
            return array
        if not isinstance(array, (numpy.ndarray, numpy.generic,
                                  cupy.ndarray)):
            raise TypeError(
                f'GpuDevice.send_array: expected a NumPy or CuPy array, '
                f'got {type(array).__name__}')
        with self.device:
            if isinstance(array, cupy.ndarray):
                # Peer copy between GPUs keeps strides; contiguity is not
                # required by the copy itself.
                return array.copy()
            return cupy.asarray(array)


class _UnavailableDevice(Device):
    """Stand-in for a removed backend (iDeep, ChainerX); never constructible.
    """

    backend_name = None

    def __init__(self, *args, **kwargs):
        raise RuntimeError(
            f'{type(self).__name__}: the {self.backend_name} backend does not '
            f'exist in Kusari; use CpuDevice (@numpy) or GpuDevice (@cupy:N)')

    def __eq__(self, other):
        return self is other

    __hash__ = Device.__hash__


class Intel64Device(_UnavailableDevice):
    """iDeep device: not provided (iDeep is not maintained for NumPy 2)."""
    backend_name = 'iDeep (intel64)'


class ChainerxDevice(_UnavailableDevice):
    """ChainerX device: not provided (ChainerX is not part of Kusari)."""
    backend_name = 'ChainerX'


def get_device(device_spec):
    """Return the :class:`Device` a specifier names.

    Accepts a Device, ``'@numpy'``, ``'@cupy:N'``, an int (``-1`` or a
    negative number for the CPU, ``N >= 0`` for GPU N) or the same int
    as a string (``'-1'``), the ``numpy`` or
    ``cupy`` module, or a ``cupy.cuda.Device``.
    """
    if isinstance(device_spec, Device):
        return device_spec
    if device_spec is numpy:
        return _CPU
    if isinstance(device_spec, str):
        return _device_from_string(device_spec)
    if isinstance(device_spec, int) and not isinstance(device_spec, bool):
        if device_spec < 0:
            return _CPU
        return GpuDevice.from_device_id(device_spec)
    cupy = lazy_cupy.imported_cupy()
    if cupy is not None:
        if device_spec is cupy:
            return GpuDevice(lazy_cupy.require_cupy().cuda.Device())
        if isinstance(device_spec, cupy.cuda.Device):
            return GpuDevice(device_spec)
    raise TypeError(
        f'get_device: expected a Device, a string such as "@numpy" or '
        f'"@cupy:0", an int device id, or an array module; got '
        f'{device_spec!r} ({type(device_spec).__name__})')


def _device_from_string(spec):
    if spec == '@numpy':
        return _CPU
    # An int as text ('-1', '0'): what examples' --device options give.
    if spec.lstrip('-').isdigit():
        return get_device(int(spec))
    if spec.startswith('@cupy:'):
        ident = spec[len('@cupy:'):]
        if not ident.isdigit():
            raise ValueError(
                f'get_device: invalid CuPy device specifier {spec!r}; '
                f'expected "@cupy:N" with N a device id')
        return GpuDevice.from_device_id(int(ident))
    if spec == '@intel64':
        return Intel64Device()
    if spec.startswith(('native', 'cuda')):
        return ChainerxDevice()
    raise ValueError(
        f'get_device: unknown device specifier {spec!r}; expected "@numpy" '
        f'or "@cupy:N"')


def get_device_from_array(*arrays):
    """The device holding the arrays: that of the first one on a GPU, else
    the host (a Variable's array is looked through)."""
    for array in arrays:
        if isinstance(array, numpy.ndarray):
            continue
        array = getattr(array, 'array', array)
        if lazy_cupy.is_cupy_array(array):
            return GpuDevice.from_array(array)
    return _CPU


def get_array_module(*args):
    """Return ``cupy`` if any argument is a CuPy array (or a Variable of
    one), else ``numpy``."""
    # (lazy_cupy.imported_cupy, without the call: this runs for nearly
    # every function applied.)
    cupy = _modules.get('cupy')
    if cupy is None:
        return numpy
    for x in args:
        if isinstance(x, numpy.ndarray):
            continue
        x = getattr(x, 'array', x)
        if isinstance(x, cupy.ndarray):
            return cupy
    return numpy


@contextlib.contextmanager
def using_device(device_spec):
    """Make the device ``device_spec`` names current in a ``with`` block."""
    with get_device(device_spec).create_context():
        yield


def to_device(device, x):
    """Send ``x`` (an array or nested list/tuple/dict of them) to ``device``.

    ``device=None`` returns ``x`` unchanged.
    """
    if device is None:
        return x
    return get_device(device).send(x)


def copyto(dst, src):
    """Copy ``src`` into ``dst`` in place, across devices if they differ."""
    if isinstance(dst, numpy.ndarray):
        numpy.copyto(dst, _CPU.send_array(src))
        return
    if lazy_cupy.is_cupy_array(dst):
        device = GpuDevice.from_array(dst)
        with device.device:
            # ndarray.set would need equal dtype and shape and a contiguous
            # dst; copyto casts and broadcasts like numpy.copyto.
            device.xp.copyto(dst, device.send_array(src))
        return
    raise TypeError(
        f'copyto: cannot copy into {type(dst).__name__}; expected a NumPy '
        f'or CuPy array as dst')


# Device types of the DLPack standard (dlpack.h's DLDeviceType).
_DLPACK_HOST = 1
_DLPACK_CUDA = (2, 13)    # device memory, managed memory


def from_dlpack(obj):
    """The array sharing the memory of ``obj``, any DLPack producer (a
    PyTorch tensor, a JAX array, ...): a NumPy array for host memory, a
    CuPy array for CUDA memory. Nothing is copied."""
    device_type, _ = obj.__dlpack_device__()
    if device_type == _DLPACK_HOST:
        return numpy.from_dlpack(obj)
    if device_type in _DLPACK_CUDA:
        return lazy_cupy.require_cupy().from_dlpack(obj)
    raise TypeError(
        f'from_dlpack: the {type(obj).__name__} is in DLPack device type '
        f'{device_type} memory, neither the host\'s (1) nor CUDA\'s (2, 13)')


def get_array_types():
    """The array types Kusari computes with: ``numpy.ndarray``, and
    ``cupy.ndarray`` where CuPy is usable (for ``isinstance`` checks)."""
    cupy = lazy_cupy.cupy_or_none()
    return (numpy.ndarray,) if cupy is None else (numpy.ndarray,
                                                  cupy.ndarray)


def is_array_supported(array):
    """Whether ``array`` is an array of a backend Kusari computes with."""
    return isinstance(array, numpy.ndarray) or lazy_cupy.is_cupy_array(array)


def to_chx(array):
    """ChainerX conversion: ChainerX is not part of Kusari, so this raises."""
    raise RuntimeError(
        'backend.to_chx: ChainerX is not part of Kusari; arrays stay NumPy '
        'or CuPy')


def from_chx(array):
    """Return ``array`` unchanged: no ChainerX array can exist in Kusari."""
    return array
