"""generate_matrix: random matrices of given singular values."""
import numpy
import pytest

from kusari.autograd import testing
from kusari.autograd.testing import matrix


@pytest.mark.parametrize('shape', [(3, 3), (4, 2), (2, 5), (2, 3, 3)])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64,
                                   numpy.complex64, numpy.complex128])
def test_has_the_singular_values_shape_and_dtype(shape, dtype):
    k = min(shape[-2:])
    values = numpy.linspace(0.5, 3, k)
    a = testing.generate_matrix(shape, dtype, singular_values=values)
    assert a.shape == shape and a.dtype == dtype
    singular = numpy.linalg.svd(a.astype(numpy.complex128),
                                compute_uv=False)
    numpy.testing.assert_allclose(
        singular, numpy.broadcast_to(values[::-1], shape[:-2] + (k,)),
        rtol=1e-5)


def test_singular_values_broadcast_over_the_stack():
    values = numpy.array([[1.0, 2.0], [3.0, 0.0]])
    a = testing.generate_matrix((2, 2, 2), singular_values=values)
    numpy.testing.assert_allclose(
        numpy.linalg.svd(a, compute_uv=False), [[2, 1], [3, 0]], atol=1e-12)
    assert numpy.linalg.matrix_rank(a[1]) == 1


def test_is_random_and_reproducible_with_fix_random():
    numpy.random.seed(0)
    a = testing.generate_matrix((3, 3), singular_values=1)
    numpy.random.seed(0)
    b = testing.generate_matrix((3, 3), singular_values=1)
    c = testing.generate_matrix((3, 3), singular_values=1)
    numpy.testing.assert_array_equal(a, b)
    assert not numpy.allclose(a, c)


def test_empty_shapes():
    a = testing.generate_matrix((0, 3, 3), singular_values=1)
    assert a.shape == (0, 3, 3) and a.dtype == numpy.float64


@pytest.mark.parametrize('shape, dtype, values, error, message', [
    ((3,), float, 1, ValueError, 'too few axes'),
    ((3, 3), float, None, TypeError, 'singular_values is not given'),
    ((3, 3), numpy.int32, 1, TypeError, 'dtype int32 is not supported'),
    ((3, 3), float, 1j, TypeError, 'singular_values is not real'),
    ((3, 3), float, [1, -1, 1], ValueError,
     'negative singular value is given'),
    ((3, 3), float, [1, 1], ValueError, 'do not broadcast'),
    ((0, 3, 3), float, [1, 1], ValueError, 'do not broadcast'),
])
def test_rejects(shape, dtype, values, error, message):
    with pytest.raises(error, match=message):
        matrix.generate_matrix(shape, dtype, singular_values=values)
