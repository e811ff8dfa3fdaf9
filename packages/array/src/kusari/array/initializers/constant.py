"""Deterministic initializers: constants and the identity matrix."""
import numbers

import numpy

from kusari.array import backend
from kusari.array.initializers import initializer


class Identity(initializer.Initializer):
    """Fills a square matrix with ``scale`` times the identity matrix.

    Args:
        scale (scalar): Value of the diagonal.
        dtype: Data type the filled array must have (None: any).
    """

    float_only = False

    def __init__(self, scale=1.0, dtype=None):
        self.scale = scale
        super().__init__(dtype)

    def __call__(self, array):
        self.check_array(array)
        if array.ndim != 2 or array.shape[0] != array.shape[1]:
            raise ValueError(
                f'Identity: expected a square 2-D array, got shape '
                f'{array.shape}')
        array[...] = 0
        backend.get_array_module(array).fill_diagonal(array, self.scale)


class Constant(initializer.Initializer):
    """Fills an array with a constant.

    Args:
        fill_value (scalar or array): The value; an array is broadcast to
            the shape of the array to fill.
        dtype: Data type the filled array must have (None: any).
    """

    float_only = False

    def __init__(self, fill_value, dtype=None):
        if not (is_scalar(fill_value)
                or backend.is_array_supported(fill_value)):
            raise TypeError(
                f'Constant: fill_value must be a number or a NumPy or CuPy '
                f'array, got {type(fill_value).__name__}')
        self.fill_value = fill_value
        super().__init__(dtype)

    def __call__(self, array):
        self.check_array(array)
        value = self.fill_value
        if not backend.is_array_supported(value):
            value = numpy.asarray(value)
        try:
            shape = numpy.broadcast_shapes(value.shape, array.shape)
        except ValueError:
            shape = None
        if shape != array.shape:
            raise ValueError(
                f'{type(self).__name__}: fill_value of shape {value.shape} '
                f'does not broadcast to the array shape {array.shape}')
        initializer.assign(array, value)


def is_scalar(value):
    """Whether ``value`` is a Python or NumPy number (not a string)."""
    return isinstance(value, (numbers.Number, numpy.bool_, numpy.number))


class Zero(Constant):
    """Fills an array with zeros."""

    def __init__(self, dtype=None):
        super().__init__(0.0, dtype)


class One(Constant):
    """Fills an array with ones."""

    def __init__(self, dtype=None):
        super().__init__(1.0, dtype)


class NaN(Constant):
    """Fills a floating-point array with NaN (to catch unset values)."""

    float_only = True

    def __init__(self, dtype=None):
        super().__init__(numpy.nan, dtype)
