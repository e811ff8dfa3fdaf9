"""Small array helpers shared by functions."""
import numpy


_SCALARS = (numpy.generic, int, float, complex)


def force_array(x, dtype=None):
    """Return ``x`` as an array: NumPy reductions and scalar indexing give
    NumPy scalars, which FunctionNode outputs must not be; Python numbers
    become 0-d arrays too (of ``dtype`` if given)."""
    if isinstance(x, _SCALARS):
        x = numpy.asarray(x)
    if dtype is not None and x.dtype != dtype:
        x = x.astype(dtype, copy=False)
    return x


def force_type(dtype, value):
    """A scalar ``value`` as a scalar of ``dtype`` (arrays pass through)."""
    if numpy.isscalar(value):
        return dtype.type(value)
    return value


def size_of_shape(shape):
    """The number of elements of an array of ``shape`` (a Python int; 1
    for the empty shape)."""
    size = 1
    for length in shape:
        size *= int(length)
    return size
