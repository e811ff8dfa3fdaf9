"""kusari.autograd.utils.array (chainer.utils' array helpers)."""
import numpy
import pytest

from kusari.autograd.utils.array import force_array
from kusari.autograd.utils.array import size_of_shape


@pytest.mark.parametrize('value', [0.5, 3, numpy.float32(0.5),
                                   numpy.int64(3)])
def test_force_array_makes_scalars_0d_arrays(value):
    y = force_array(value)
    assert isinstance(y, numpy.ndarray) and y.shape == ()
    assert y == value


def test_force_array_casts_to_dtype_and_keeps_arrays():
    y = force_array(0.0, numpy.float16)
    assert isinstance(y, numpy.ndarray) and y.dtype == numpy.float16
    x = numpy.ones(3, numpy.float32)
    assert force_array(x) is x
    assert force_array(x, numpy.float32) is x
    assert force_array(x, numpy.float64).dtype == numpy.float64


def test_size_of_shape():
    assert size_of_shape((2, 3, 4)) == 24
    assert size_of_shape(()) == 1
    assert size_of_shape((5, 0)) == 0
    assert type(size_of_shape(numpy.array([2, 3]))) is int
