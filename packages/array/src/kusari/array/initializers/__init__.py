"""Weight initializers: callables that fill an array in place.

An initializer can be an :class:`Initializer`, a scalar or array (a
:class:`Constant`), any callable taking an array, or None (the default,
:class:`LeCunNormal`); :func:`get_initializer` turns each into a callable.
"""
import numpy

from kusari.array import backend, configuration, lazy_cupy
from kusari.array.initializers.constant import (  # NOQA
    Constant, Identity, NaN, One, Zero, is_scalar)
from kusari.array.initializers.fans import get_fans  # NOQA
from kusari.array.initializers.initializer import Initializer  # NOQA
from kusari.array.initializers.normal import (  # NOQA
    GlorotNormal, HeNormal, LeCunNormal, Normal)
from kusari.array.initializers.orthogonal import Orthogonal  # NOQA
from kusari.array.initializers.sampling import (  # NOQA
    DownsamplingConvFilter, UpsamplingDeconvFilter)
from kusari.array.initializers.uniform import (  # NOQA
    GlorotUniform, HeUniform, LeCunUniform, Uniform)


def generate_array(initializer, shape, xp, dtype=None, device=None):
    """Return a new array of ``shape`` filled by ``initializer``.

    Args:
        initializer: A callable that fills an array in place.
        shape (int or tuple of ints): Shape of the new array.
        xp (module): ``numpy`` or ``cupy``.
        dtype: Data type; defaults to ``initializer.dtype``, then to
            ``config.dtype`` (``mixed16`` gives float16). It may not
            contradict ``initializer.dtype``.
        device: Device specifier for the array; defaults to the host for
            ``numpy`` and to the current GPU for ``cupy``. Its array module
            must be ``xp``.

    Returns:
        The new, initialized array.
    """
    dtype_attr = getattr(initializer, 'dtype', None)
    if dtype is not None and dtype_attr is not None and \
            configuration.get_dtype(dtype) != \
            configuration.get_dtype(dtype_attr):
        raise ValueError(
            f'generate_array: dtype {dtype} contradicts the dtype '
            f'{dtype_attr} of the initializer {initializer!r}')
    dtype = configuration.get_dtype(dtype if dtype is not None
                                    else dtype_attr)
    if xp is not numpy and xp is not lazy_cupy.imported_cupy():
        raise TypeError(
            f'generate_array: xp must be the numpy or cupy module, got '
            f'{xp!r}')
    device = backend.get_device(xp if device is None else device)
    if device.xp is not xp:
        raise ValueError(
            f'generate_array: device {device} computes with '
            f'{device.xp.__name__}, but xp is {xp.__name__}')
    with device:
        array = xp.empty(shape, dtype=dtype)
    initializer(array)
    return array


def get_initializer(initializer):
    """Turn any accepted initializer specification into a callable.

    None gives :class:`LeCunNormal`, a scalar or array a :class:`Constant`;
    a callable is returned as is.
    """
    if initializer is None:
        return LeCunNormal()
    if is_scalar(initializer) or backend.is_array_supported(
            initializer):
        return Constant(initializer)
    if not callable(initializer):
        raise TypeError(
            f'get_initializer: expected None, a scalar, an array or a '
            f'callable initializer, got {type(initializer).__name__}')
    return initializer


_get_initializer = get_initializer
