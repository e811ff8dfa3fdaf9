"""Small array helpers shared by functions."""
import math

import numpy


_SCALARS = (numpy.generic, int, float, complex)
_ndarray = numpy.ndarray


def force_array(x, dtype=None):
    """Return ``x`` as an array: NumPy reductions and scalar indexing give
    NumPy scalars, which FunctionNode outputs must not be; Python numbers
    become 0-d arrays too (of ``dtype`` if given)."""
    # (The type test first: most calls get a NumPy array, and it is the
    # cheaper one.)
    if type(x) is not _ndarray and isinstance(x, _SCALARS):
        x = numpy.asarray(x)
    if dtype is not None and x.dtype != dtype:
        x = x.astype(dtype, copy=False)
    return x


def force_type(dtype, value):
    """``value`` as ``dtype``: a scalar as a scalar of it, an array of
    another dtype converted (no copy where it already has it)."""
    if numpy.isscalar(value):
        return dtype.type(value)
    if value.dtype != dtype:
        return value.astype(dtype, copy=False)
    return value


def size_of_shape(shape):
    """The number of elements of an array of ``shape``, as an int (1 for
    ``()``)."""
    return int(math.prod(shape))
