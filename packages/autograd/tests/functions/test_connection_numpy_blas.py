"""``c += a^T b`` by NumPy's own BLAS (Linear's reused-weight gradient)."""
import functools

import numpy
import pytest

from kusari.autograd.functions.connection import _numpy_blas

DTYPES = [numpy.float32, numpy.float64]


def _layouts(x):
    """``x`` as the same values in each layout BLAS may be handed: C and
    Fortran order, rows apart in memory, and no contiguous axis (copied)."""
    rows, columns = x.shape
    padded = numpy.zeros((rows, columns + 3), x.dtype)
    padded[:, :columns] = x
    padded_columns = numpy.zeros((columns, rows + 3), x.dtype)
    padded_columns[:, :rows] = x.T
    spread = numpy.zeros((2 * rows, 2 * columns), x.dtype)[::2, ::2]
    spread[...] = x
    return {'c': x, 'fortran': numpy.asfortranarray(x),
            'row_strided': padded[:, :columns],
            'column_strided': padded_columns[:, :rows].T,
            'no_contiguous_axis': spread}


@pytest.mark.parametrize('layout, transposed, leading', [
    ('c', False, 4), ('fortran', True, 5), ('row_strided', False, 7),
    ('column_strided', True, 8)])
def test_layouts_blas_reads_in_place_are_not_copied(layout, transposed,
                                                    leading):
    # The point of the module: no copy, no second pass (rows 5, columns 4).
    x = _layouts(numpy.ones((5, 4), numpy.float32))[layout]
    matrix, *how = _numpy_blas._matrix(x)
    assert matrix is x and how == [transposed, leading]


def _wheel_blas():
    blas = numpy.show_config(mode='dicts')['Build Dependencies']['blas']
    return blas['name'].startswith('scipy-openblas')


def test_numpy_wheels_gemm_is_found():
    # NumPy's wheels bring scipy-openblas: its gemm must be called, or
    # the reused-weight gradient takes a second pass (or a second BLAS).
    if not _wheel_blas():
        pytest.skip('NumPy is not built on scipy-openblas')
    for dtype in DTYPES:
        assert _numpy_blas.gemm(numpy.dtype(dtype)) is not None


@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('k, m, n', [(5, 4, 3), (1, 7, 2), (6, 1, 1),
                                     (3, 2, 9)])
@pytest.mark.parametrize('a_layout', ['c', 'fortran', 'row_strided',
                                      'column_strided', 'no_contiguous_axis'])
@pytest.mark.parametrize('b_layout', ['c', 'fortran', 'no_contiguous_axis'])
def test_gemm_add_adds_the_product_in_place(dtype, k, m, n, a_layout,
                                            b_layout):
    if _numpy_blas.gemm(numpy.dtype(dtype)) is None:
        pytest.skip("NumPy's BLAS gemm is not found here")
    rng = numpy.random.default_rng(0)
    a = rng.standard_normal((k, m)).astype(dtype)
    b = rng.standard_normal((k, n)).astype(dtype)
    c = rng.standard_normal((m, n)).astype(dtype)
    expected = c + a.T @ b
    a_seen = _layouts(a)[a_layout]
    b_seen = _layouts(b)[b_layout]
    data = c.ctypes.data
    assert _numpy_blas.gemm_add(c, a_seen, b_seen) is True
    assert c.ctypes.data == data
    tolerance = 1e-5 if dtype == numpy.float32 else 1e-12
    numpy.testing.assert_allclose(c, expected, rtol=tolerance,
                                  atol=tolerance)
    # The operands are read, never written.
    numpy.testing.assert_array_equal(a_seen, a)
    numpy.testing.assert_array_equal(b_seen, b)


def _items_apart(row_items, column_items, x):
    """A matrix of x's shape whose rows start ``row_items`` items apart
    and whose columns ``column_items`` apart, over one short buffer: they
    overlap (BLAS cannot read it in place)."""
    rows, columns = x.shape
    base = numpy.arange(row_items * rows + column_items * columns,
                        dtype=x.dtype) / 7
    return numpy.lib.stride_tricks.as_strided(
        base, x.shape, (row_items * x.itemsize, column_items * x.itemsize))


def _odd_step(axis, x):
    """x's values with the step along ``axis`` no whole number of items
    (BLAS cannot read it in place); the other axis's items are next to
    each other."""
    steps = [x.itemsize] * 2
    steps[axis] = x.shape[1 - axis] * x.itemsize + 2
    odd = numpy.ndarray(x.shape, x.dtype,
                        numpy.zeros(x.shape[axis] * steps[axis], numpy.uint8),
                        strides=tuple(steps))
    odd[...] = x
    return odd


def _reversed_columns(x):
    """x's values, its rows apart and each one read backwards in memory.
    """
    return numpy.ascontiguousarray(x[:, ::-1])[:, ::-1]


def _reversed_fortran_rows(x):
    """x's values in Fortran order with the rows' step negative."""
    return numpy.asfortranarray(x[::-1])[::-1]


def _every_other_fortran_row(x):
    """x's values in every other row of a Fortran-order array: neither
    axis contiguous."""
    spread = numpy.zeros((2 * x.shape[0], x.shape[1]), x.dtype, order='F')
    spread = spread[::2]
    spread[...] = x
    return spread


@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('layout', [
    functools.partial(_items_apart, 1, 1),
    functools.partial(_items_apart, 2, 1),
    functools.partial(_items_apart, 1, 2),
    functools.partial(_odd_step, 0), functools.partial(_odd_step, 1),
    _reversed_columns,
    _reversed_fortran_rows, _every_other_fortran_row])
def test_gemm_add_copies_what_blas_cannot_read(dtype, layout):
    if _numpy_blas.gemm(numpy.dtype(dtype)) is None:
        pytest.skip("NumPy's BLAS gemm is not found here")
    rng = numpy.random.default_rng(1)
    a = layout(rng.standard_normal((5, 4)).astype(dtype))
    b = rng.standard_normal((5, 3)).astype(dtype)
    c = rng.standard_normal((4, 3)).astype(dtype)
    expected = c + a.T @ b
    assert _numpy_blas.gemm_add(c, a, b) is True
    tolerance = 1e-5 if dtype == numpy.float32 else 1e-12
    numpy.testing.assert_allclose(c, expected, rtol=tolerance,
                                  atol=tolerance)


def test_gemm_add_of_empty_operands():
    c = numpy.ones((3, 2), numpy.float32)
    assert _numpy_blas.gemm_add(c, numpy.zeros((0, 3), numpy.float32),
                                numpy.zeros((0, 2), numpy.float32)) is True
    numpy.testing.assert_array_equal(c, 1)


# The dtypes of (a, b, c) where they differ: each operand wider and
# narrower than c.
MIXED = {'a_wider': 'dff', 'a_narrower': 'fdd', 'b_wider': 'fdf',
         'b_narrower': 'dfd'}


@pytest.mark.parametrize('case', ['float16', *MIXED, 'c_fortran',
                                  'c_is_b', 'c_view_of_a'])
def test_gemm_add_refuses_and_leaves_c_alone(case):
    dtype = numpy.float16 if case == 'float16' else numpy.float32
    a_dtype, b_dtype, c_dtype = MIXED.get(case, (dtype,) * 3)
    a = numpy.ones((2, 3), a_dtype)
    b = numpy.ones((2, 3), b_dtype)
    c = numpy.ones((3, 3), c_dtype)
    if case == 'c_fortran':
        c = numpy.asfortranarray(numpy.ones((3, 4), dtype))[:, :3]
    elif case == 'c_is_b':
        b = numpy.ones((3, 3), dtype)
        a = numpy.ones((3, 3), dtype)
        c = b
    elif case == 'c_view_of_a':
        a = numpy.ones((3, 3), dtype)
        c = a[:, :]
        b = numpy.ones((3, 3), dtype)
    before = c.copy()
    assert _numpy_blas.gemm_add(c, a, b) is False
    numpy.testing.assert_array_equal(c, before)
