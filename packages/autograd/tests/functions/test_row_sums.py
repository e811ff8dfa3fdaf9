"""sum_keepdims: NumPy's sum with kept axes, by BLAS over trailing axes."""
import numpy
import pytest

from kusari.autograd.functions.math import _row_sums
from kusari.autograd.functions.math._row_sums import sum_keepdims


@pytest.mark.parametrize('shape, axes', [
    ((4, 5), (1,)), ((4, 5), (-1,)), ((3, 4, 5), (1, 2)),
    ((3, 4, 5), (0, 1, 2)),
    ((3, 4, 5), (0,)), ((3, 4, 5), (1,)), ((7,), (0,)), ((3, 0), (1,)),
    ((0, 3), (1,)), ((), ()),
])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_matches_numpy_sum(shape, axes, dtype):
    x = numpy.random.default_rng(0).standard_normal(shape).astype(dtype)
    expected = x.sum(axis=axes, keepdims=True)
    total = sum_keepdims(x, axes)
    assert total.shape == expected.shape and total.dtype == expected.dtype
    numpy.testing.assert_allclose(total, expected, rtol=1e-5, atol=1e-5)


def test_non_contiguous_and_other_dtype():
    x = numpy.arange(24.0, dtype=numpy.float32).reshape(4, 6)[:, ::2]
    numpy.testing.assert_array_equal(sum_keepdims(x, (1,)),
                                     x.sum(axis=1, keepdims=True))
    total = sum_keepdims(x.astype(numpy.float16), (1,), numpy.float32)
    assert total.dtype == numpy.float32
    numpy.testing.assert_array_equal(total, x.sum(axis=1, keepdims=True))


@pytest.mark.parametrize('shape, axes, dtype, by_blas', [
    ((4, 5), (1,), numpy.float32, True),
    ((3, 4, 5), (-2, -1), numpy.float64, True),
    ((3, 4, 5), (0, 1, 2), numpy.float32, True),
    ((3, 4, 5), (0,), numpy.float32, False),
    ((4, 5), (1,), numpy.float16, False),
    ((0, 5), (1,), numpy.float32, False),
])
def test_the_blas_path_is_taken_where_it_applies(monkeypatch, shape, axes,
                                                 dtype, by_blas):
    # The BLAS path is the one that makes a vector of ones.
    ones = []

    class CountingNumpy:
        def __getattr__(self, name):
            return getattr(numpy, name)

        def ones(self, *args, **kwargs):
            ones.append(args)
            return numpy.ones(*args, **kwargs)
    monkeypatch.setattr(_row_sums, 'numpy', CountingNumpy())
    x = numpy.ones(shape, dtype)
    numpy.testing.assert_array_equal(
        sum_keepdims(x, axes), x.sum(axis=axes, keepdims=True))
    assert bool(ones) == by_blas
