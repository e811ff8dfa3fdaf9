"""Comparing arrays of any device within tolerances, explaining a mismatch."""
import io

import numpy

from kusari.array import backend
from kusari.autograd import variable


def assert_allclose(x, y, atol=1e-5, rtol=1e-4, verbose=True):
    """Assert that ``|x - y| <= atol + rtol * |y|`` elementwise.

    Like ``numpy.testing.assert_allclose`` with looser defaults, and ``x``
    and ``y`` may be NumPy or CuPy arrays (mixed), scalars, or Variables.
    On failure the AssertionError gives NumPy's report, both shapes and
    dtypes, the index of the element furthest beyond the tolerance with its
    values, errors and tolerances, and both arrays in full.

    Args:
        x: the actual values.
        y: the expected values (the relative tolerance scales with them).
        atol (float): absolute tolerance.
        rtol (float): relative tolerance.
        verbose (bool): whether NumPy's report shows the mismatched values.
    """
    x = _to_numpy(x)
    y = _to_numpy(y)
    try:
        numpy.testing.assert_allclose(
            x, y, atol=atol, rtol=rtol, verbose=verbose)
    except AssertionError as error:
        raise AssertionError(_report(x, y, atol, rtol, error)) from None


def _to_numpy(x):
    if isinstance(x, variable.Variable):
        x = x.array
    if backend.is_array_supported(x):
        return backend.CpuDevice().send_array(x)
    return numpy.asarray(x)


def _report(x, y, atol, rtol, error):
    out = io.StringIO()
    out.write(f'{error}\n\nassert_allclose failed: \n'
              f'  shape: {x.shape} {y.shape}\n'
              f'  dtype: {x.dtype} {y.dtype}\n')
    if x.shape == y.shape and x.size > 0 and _numeric(x) and _numeric(y):
        _write_worst_element(out, numpy.atleast_1d(x),
                             numpy.atleast_1d(y), atol, rtol)
    with numpy.printoptions(threshold=10000):
        out.write('x: ' + numpy.array2string(x, prefix='x: ') + '\n')
        out.write('y: ' + numpy.array2string(y, prefix='y: ') + '\n')
    return out.getvalue()


def _numeric(a):
    return a.dtype.kind in 'biufc'


def _write_worst_element(out, x, y, atol, rtol):
    # In 64 bits, so that float16 errors neither overflow nor round to 0.
    x64 = x.astype(numpy.promote_types(x.dtype, numpy.float64))
    y64 = y.astype(numpy.promote_types(y.dtype, numpy.float64))
    error = numpy.abs(x64 - y64)
    relative_tolerance = rtol * numpy.abs(y64)
    tolerance = atol + relative_tolerance
    # NaN beyond the tolerance counts as the worst.
    excess = numpy.where(numpy.isnan(error), numpy.inf, error - tolerance)
    worst = numpy.unravel_index(numpy.argmax(excess), excess.shape)
    i = tuple(int(n) for n in worst)
    relative_error = 'inf' if y[i] == 0 else error[i] / abs(y64[i])
    out.write(f'  i: {i}\n'
              f'  x[i]: {x[i]}\n'
              f'  y[i]: {y[i]}\n'
              f'  relative error[i]: {relative_error}\n'
              f'  absolute error[i]: {error[i]}\n'
              f'  relative tolerance * |y[i]|: {relative_tolerance[i]}\n'
              f'  absolute tolerance: {atol}\n'
              f'  total tolerance: {tolerance[i]}\n')
