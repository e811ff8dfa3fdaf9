"""The initializer base class and what its subclasses share.

An initializer fills an existing array in place. Arrays on any device are
accepted: values are computed with the array's own array module (or on the
host) and stored through the array's device.
"""
import numpy

from kusari.array import backend, configuration


class Initializer:
    """Base of the initializers: a callable that fills an array in place.

    Args:
        dtype: If not None, the dtype the filled arrays must have; a
            mismatch is an error. None accepts any dtype the initializer
            supports.
    """

    #: Whether only floating-point arrays can be filled.
    float_only = True

    def __init__(self, dtype=None):
        self.dtype = dtype

    def __call__(self, array):
        """Fill ``array`` (a NumPy or CuPy array) in place."""
        raise NotImplementedError(
            f'{type(self).__name__} must implement __call__')

    def check_array(self, array):
        """Raise if ``array`` is not an array this initializer can fill."""
        name = type(self).__name__
        if not backend.is_array_supported(array):
            raise TypeError(
                f'{name}: expected a NumPy or CuPy array to fill, got '
                f'{type(array).__name__}')
        if self.dtype is not None:
            expected = configuration.get_dtype(self.dtype)
            if array.dtype != expected:
                raise TypeError(
                    f'{name}: the initializer has dtype {expected}, but the '
                    f'array to fill has dtype {array.dtype}')
        if self.float_only and array.dtype.kind != 'f':
            raise TypeError(
                f'{name}: expected a floating-point array, got dtype '
                f'{array.dtype}')


class Sampled(Initializer):
    """Fills an array with samples of a distribution set by ``scale``.

    Subclasses name the generator method (``method``) and give its
    arguments for a scale (``arguments``).
    """

    method = None

    def __init__(self, scale=0.05, dtype=None, *, rng=None):
        self.scale = scale
        self.rng = rng
        super().__init__(dtype)

    def arguments(self):
        raise NotImplementedError

    def __call__(self, array):
        self.check_array(array)
        assign(array, draw(self.method, array, self.rng, *self.arguments()))


def assign(array, values):
    """Store ``values`` (an array on any device) into ``array`` in place."""
    device = backend.get_device_from_array(array)
    array[...] = device.send_array(values)


def draw(method, array, rng, *args, size=None):
    """Random values from ``rng.<method>(*args, size=size)``.

    Without ``rng``, the random module of ``array``'s array module is used,
    so ``numpy.random.seed`` makes CPU initialization reproducible. ``size``
    defaults to ``array.shape``.
    """
    if size is None:
        size = array.shape
    if rng is not None:
        return getattr(rng, method)(*args, size=size)
    xp = backend.get_array_module(array)
    if xp is numpy:
        return getattr(numpy.random, method)(*args, size=size)
    # CuPy can draw float32 directly, which is all half and single need.
    dtype = numpy.float64 if array.dtype == numpy.float64 else numpy.float32
    return getattr(xp.random, method)(*args, size=size, dtype=dtype)
