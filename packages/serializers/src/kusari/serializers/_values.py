"""What a value becomes when saved, and how a loaded one is put back.

Shared by the NPZ and HDF5 formats. A value is an array (NumPy or CuPy), a
Python or NumPy scalar, a string, or None.
"""
import sys

import numpy


def is_cupy_array(value):
    # Only an imported cupy can have made a CuPy array: never import it here.
    cupy = sys.modules.get('cupy')
    return cupy is not None and isinstance(value, cupy.ndarray)


def to_host(caller, key, value):
    """Return ``value`` as the NumPy array to store, or None for None."""
    if value is None:
        return None
    if is_cupy_array(value):
        return value.get()
    array = numpy.asarray(value)
    if array.dtype.hasobject:
        raise TypeError(
            f'{caller}: cannot serialize {key!r}: expected an array, a '
            f'scalar, a string or None, got {type(value).__name__} (which '
            f'NumPy can only hold as Python objects)')
    return array


def assign(value, loaded, key, source):
    """Put the ``loaded`` array into ``value`` and return what to keep.

    ``key`` names the value in errors (see ``_paths.describe_key``).

    An array ``value`` is filled in place and returned; a scalar or string
    ``value`` gives the stored one converted to its type; a None ``value``
    gives the stored array itself (the owner has nothing to fill yet, as an
    uninitialized parameter). A stored None gives None whatever ``value``
    is, so that a None saved is a None loaded.
    """
    if loaded is None:
        return None
    loaded = numpy.asarray(loaded)
    if value is None:
        return loaded
    if isinstance(value, numpy.ndarray) or is_cupy_array(value):
        _check_array(value, loaded, key, source)
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, loaded)
        else:
            _copy_to_device(value, loaded)
        return value
    return _to_scalar(value, loaded, key, source)


def _check_array(value, loaded, key, source):
    if value.shape != loaded.shape:
        raise ValueError(
            f'cannot load {key} from {source}: the stored array has shape '
            f'{loaded.shape}, the destination has shape {value.shape}')
    if not numpy.can_cast(loaded.dtype, value.dtype, casting='same_kind'):
        raise TypeError(
            f'cannot load {key} from {source}: the stored dtype '
            f'{loaded.dtype} does not convert to the destination dtype '
            f'{value.dtype}')


def _copy_to_device(value, loaded):
    # asarray, not ascontiguousarray: that one makes a 0-d array 1-d.
    host = numpy.asarray(loaded, dtype=value.dtype, order='C')
    if value.flags.c_contiguous:
        value.set(host)
    else:
        cupy = sys.modules['cupy']
        with value.device:
            value[...] = cupy.asarray(host)


def _to_scalar(value, loaded, key, source):
    # TypeError both ways, as in Chainer: the dtype is checked first, and
    # an array is not a scalar (as for ``int(array)``).
    kind = type(value)
    if _narrows(loaded.dtype, kind):
        raise TypeError(
            f'cannot load {key} from {source}: the stored dtype '
            f'{loaded.dtype} does not convert safely to {kind.__name__}')
    if loaded.size != 1:
        raise TypeError(
            f'cannot load {key} from {source}: a {kind.__name__} needs one '
            f'stored value, got an array of shape {loaded.shape}')
    return kind(loaded.reshape(())[()])


def _narrows(dtype, kind):
    """Whether converting ``dtype`` numbers to ``kind`` could lose them."""
    if not issubclass(dtype.type, numpy.number):
        return False
    if not issubclass(kind, (int, float, complex, numpy.number,
                             numpy.bool_)):
        return False
    # Python ints are unbounded: any stored integer fits.
    if kind is int and issubclass(dtype.type, numpy.integer):
        return False
    return not numpy.can_cast(dtype, kind, casting='safe')
