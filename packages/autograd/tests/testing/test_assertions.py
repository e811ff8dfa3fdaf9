import warnings

import numpy
import pytest

from kusari.autograd import testing
from kusari.autograd import variable


def test_passes_within_tolerance_of_expected():
    testing.assert_allclose(numpy.float32(1.00005), 1.0)
    testing.assert_allclose([1000.0], numpy.array([1000.09]))  # rtol


def test_accepts_variables_and_mixed_dtypes():
    x = variable.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    testing.assert_allclose(x, numpy.arange(6).reshape(2, 3))


def test_failure_explains_the_worst_element():
    x = numpy.zeros((2, 3), dtype=numpy.float32)
    y = numpy.zeros((2, 3), dtype=numpy.float64)
    x[0, 1], x[1, 2] = 0.5, 3.0
    y[1, 2] = 2.0
    with pytest.raises(AssertionError) as info:
        testing.assert_allclose(x, y, atol=0.1, rtol=0.01)
    message = str(info.value)
    assert 'Mismatched elements: 2 / 6' in message  # NumPy's report
    for line in ['assert_allclose failed: ',
                 '  shape: (2, 3) (2, 3)',
                 '  dtype: float32 float64',
                 '  i: (1, 2)',
                 '  x[i]: 3.0',
                 '  y[i]: 2.0',
                 '  relative error[i]: 0.5',
                 '  absolute error[i]: 1.0',
                 '  relative tolerance * |y[i]|: 0.02',
                 '  absolute tolerance: 0.1',
                 '  total tolerance: 0.12',
                 'x: [[0.  0.5 0. ]\n    [0.  0.  3. ]]',
                 'y: [[0. 0. 0.]\n    [0. 0. 2.]]']:
        assert line in message.splitlines() or line in message, line


def test_failure_against_zero_reports_infinite_relative_error():
    with pytest.raises(AssertionError, match=r'relative error\[i\]: inf'):
        testing.assert_allclose(numpy.array([1.0]), numpy.array([0.0]))


def test_failure_with_nan_points_at_it():
    with pytest.raises(AssertionError, match=r'  i: \(1,\)'):
        testing.assert_allclose(numpy.array([1.5, numpy.nan]),
                                numpy.array([1.0, 1.0]))


def test_shape_mismatch_reports_shapes_without_elements():
    with pytest.raises(AssertionError) as info:
        testing.assert_allclose(numpy.zeros(2), numpy.zeros(3))
    assert '  shape: (2,) (3,)' in str(info.value)
    assert '  i: ' not in str(info.value)


class SpecialWarning(UserWarning):
    pass


def test_assert_warns_passes_on_a_subclass_warning_even_if_filtered():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        with testing.assert_warns(UserWarning):
            warnings.warn('w', DeprecationWarning)
            warnings.warn('x', SpecialWarning)


def test_assert_warns_fails_without_the_warning():
    with pytest.raises(AssertionError, match='RuntimeWarning not triggered'):
        with testing.assert_warns(RuntimeWarning):
            warnings.warn('w', DeprecationWarning)
