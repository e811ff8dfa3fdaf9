"""Reductions, scans, matrix functions, einsum, tensordot, FFT, sparse
products and forget: what the conformance records cannot say.

Options and argument errors, ties and zeros in gradients, stability at
extreme values, singular matrices, and values checked against Chainer
7.8.1.
"""
import warnings

import numpy
import pytest

from kusari.array import configuration
from kusari.autograd import function_node
from kusari.autograd import functions as F
from kusari.autograd.functions.math.einsum import EinSum
from kusari.autograd.functions.math.matmul import MatMul
from kusari.autograd.functions.math.sum import Sum
from kusari.autograd.utils import type_check
from kusari.autograd.utils.sparse import CooMatrix
from kusari.autograd.utils.sparse import to_coo
from kusari.autograd.variable import Variable

from static_replays import check_replays

X = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)


def _grad(y, x, gy=None):
    if gy is None:
        gy = numpy.ones(y.shape, y.dtype)
    gx, = function_node.grad([y], [x], [gy])
    return gx.array


# -- sum, and the axis checks every reduction shares -------------------------


@pytest.mark.parametrize('func', [F.sum, F.max, F.mean, F.prod, F.logsumexp])
def test_reductions_check_each_axis_against_x(func):
    # As Chainer: an axis past either end of x is an InvalidType; the
    # first and the last axis, each way round, are taken.
    for axis in (2, 3, -3, -4, (0, 2), (-3, 1)):
        with pytest.raises(type_check.InvalidType, match='ndim'):
            func(X, axis=axis)
    for axis in (0, 1, -1, -2, (1, -2)):
        assert func(X, axis=axis).shape == numpy.sum(X, axis=axis).shape
    for axis in (0, -1):
        with pytest.raises(type_check.InvalidType, match='ndim'):
            func(numpy.array(1.0, numpy.float32), axis=axis)


@pytest.mark.parametrize('axis, error, match', [
    (True, TypeError, 'axis must be None, an int or a tuple of ints'),
    ((0, False), TypeError, 'axis must be None'),
    (1.0, TypeError, 'axis must be None'),
    ((0, 1.0), TypeError, 'axis must be None'),
    ([0, 1], TypeError, 'axis must be None'),
    ((1, 1), ValueError, r'duplicate value in axis: \(1, 1\)'),
])
def test_sum_rejects_a_bad_axis_at_call_time(axis, error, match):
    with pytest.raises(error, match='sum: ' + match):
        F.sum(X, axis=axis)


def test_sum_node_defaults_to_every_axis_and_no_kept_axes():
    # Chainer's chainer.functions.math.sum.Sum(), built by hand.
    y, = Sum().apply((X,))
    assert y.shape == () and y.array == F.sum(X).array == 15


# -- max, min, argmax, argmin --------------------------------------------


def test_max_gradient_goes_to_every_tie():
    x = Variable(numpy.array([1.0, 3.0, 3.0], numpy.float32))
    numpy.testing.assert_array_equal(_grad(F.max(x), x), [0, 1, 1])


def test_min_keepdims_and_negative_axis():
    y = F.min(X, axis=-1, keepdims=True)
    assert y.shape == (2, 1)
    numpy.testing.assert_array_equal(y.array, [[0], [3]])
    assert F.min(X).shape == F.max(X).shape == ()  # keepdims=False


@pytest.mark.parametrize('func', [F.argmax, F.argmin])
def test_argmax_argmin_of_one_element_and_of_none(func):
    assert int(func(numpy.array([5.0], numpy.float32)).array) == 0
    with pytest.raises(type_check.InvalidType, match=r'x\.size'):
        func(numpy.zeros((0, 3), numpy.float32))


def test_max_over_an_empty_axis_fails_naming_it():
    with pytest.raises(type_check.InvalidType, match='max'):
        F.max(numpy.zeros((0, 3), numpy.float32), axis=0)
    assert F.max(numpy.zeros((0, 3), numpy.float32), axis=1).shape == (0,)


@pytest.mark.parametrize('axis, error', [('a', TypeError), ((0, 0),
                                                             ValueError)])
def test_max_rejects_bad_axis_at_call_time(axis, error):
    with pytest.raises(error, match='max: .*axis'):
        F.max(X, axis=axis)


def test_max_rejects_integer_input():
    with pytest.raises(type_check.InvalidType, match='kind'):
        F.max(numpy.arange(3))


def test_argmax_argmin_give_int32_and_no_gradient():
    x = Variable(X)
    index = F.argmax(x)
    assert index.dtype == numpy.int32 and int(index.array) == 5
    numpy.testing.assert_array_equal(F.argmin(x, axis=1).array, [0, 0])
    assert F.argmax(x, axis=0).dtype == numpy.int32
    assert index.creator.backward((0,), (None,)) == (None,)


def test_argmax_accepts_only_none_or_an_int_axis():
    with pytest.raises(TypeError, match='argmax: axis must be an int'):
        F.argmax(X, axis=(0, 1))


# -- mean, average ---------------------------------------------------------


def test_mean_is_average_and_keeps_float16():
    assert F.mean is F.average
    y = F.mean(numpy.full((1000,), 0.1, numpy.float16))
    assert y.dtype == numpy.float16
    numpy.testing.assert_allclose(float(y.array), 0.1, rtol=1e-3)


def test_weighted_average_against_chainer():
    weights = numpy.array([1, 2, 3], numpy.float32)
    y = F.average(X, axis=1, weights=weights)
    numpy.testing.assert_allclose(y.array, [1.3333334, 4.3333335])
    assert F.average(X, -1, weights, keepdims=True).shape == (2, 1)


def test_average_gradient_reaches_the_weights():
    w = Variable(numpy.array([1.0, 3.0], numpy.float64))
    x = numpy.array([[0.0, 1.0], [2.0, 3.0]])
    # d/dw of (x . w) / sum(w) = (x - average) / sum(w)
    numpy.testing.assert_allclose(
        _grad(F.average(x, axis=1, weights=w), w),
        [(0 - 0.75) / 4 + (2 - 2.75) / 4, (1 - 0.75) / 4 + (3 - 2.75) / 4])


def test_average_rejects_weights_of_another_shape():
    with pytest.raises(ValueError, match=r'average: weights .* \(2,\)'):
        F.average(X, axis=1, weights=numpy.ones(2, numpy.float32))
    with pytest.raises(ValueError, match='average: weights'):
        F.average(X, weights=numpy.ones(3, numpy.float32))
    with pytest.raises(ValueError, match='average: weights'):
        F.average(X, axis=1, weights=numpy.ones(4, numpy.float32))
    # 1-D weights need exactly one axis.
    for axis in ((), (0, 1)):
        with pytest.raises(ValueError, match='average: weights'):
            F.average(X, axis=axis, weights=numpy.ones(2, numpy.float32))
    for axis in (2, 3):  # no such axis
        with pytest.raises(ValueError, match='average: weights'):
            F.average(X, axis=axis, weights=numpy.ones(3, numpy.float32))


def test_mean_over_an_empty_axis_has_an_empty_gradient():
    x = Variable(numpy.zeros((0, 3), numpy.float32))
    with numpy.errstate(invalid='ignore'), \
            pytest.warns(RuntimeWarning, match='Mean of empty slice'):
        y = F.mean(x, axis=0)
    assert numpy.isnan(y.array).all()
    assert _grad(y, x).shape == (0, 3)


# -- logsumexp ---------------------------------------------------------------


def test_logsumexp_is_stable_at_large_values():
    x = Variable(numpy.array([1e4, -1e4, 1e4], numpy.float32))
    y = F.logsumexp(x)
    # Chainer 7.8.1 gives 10000.693 too.
    numpy.testing.assert_allclose(float(y.array), 1e4 + numpy.log(2),
                                  rtol=1e-7)
    numpy.testing.assert_allclose(_grad(y, x), [0.5, 0, 0.5], atol=1e-3)


def test_logsumexp_float16_at_its_largest_values_is_finite():
    y = F.logsumexp(numpy.array([[6e4, -6e4], [-6e4, -6e4]], numpy.float16),
                    axis=1)
    assert y.dtype == numpy.float16
    numpy.testing.assert_allclose(y.array, [6e4, -6e4 + numpy.log(2)],
                                  rtol=1e-3)


def test_logsumexp_of_minus_infinity_is_minus_infinity():
    y = F.logsumexp(numpy.full((2, 3), -numpy.inf, numpy.float32), axis=1)
    numpy.testing.assert_array_equal(y.array, [-numpy.inf, -numpy.inf])


def test_logsumexp_over_an_empty_axis_is_minus_infinity():
    y = F.logsumexp(numpy.zeros((0, 3), numpy.float32), axis=0)
    numpy.testing.assert_array_equal(y.array, [-numpy.inf] * 3)


# -- prod, cumsum, cumprod -------------------------------------------------


def test_prod_gradient_with_zeros_against_chainer():
    x = Variable(numpy.array([[2, 0, 3], [0, 0, 1]], numpy.float32))
    numpy.testing.assert_array_equal(_grad(F.prod(x, axis=1), x),
                                     [[0, 6, 0], [0, 0, 0]])


@pytest.mark.parametrize('axis', [0, None])
def test_prod_over_an_empty_axis_is_one_with_a_zero_gradient(axis):
    x = Variable(numpy.zeros((0, 3), numpy.float32))
    y = F.prod(x, axis=axis)
    numpy.testing.assert_array_equal(y.array, numpy.ones(y.shape))
    numpy.testing.assert_array_equal(_grad(y, x), numpy.zeros((0, 3)))


def test_cumprod_gradient_with_zeros_against_chainer():
    x = Variable(numpy.array([2, 0, 3, 0.5, 0, 2], numpy.float32))
    numpy.testing.assert_array_equal(_grad(F.cumprod(x), x),
                                     [1, 11, 0, 0, 0, 0])


@pytest.mark.parametrize('func', [F.cumsum, F.cumprod])
def test_scan_without_axis_flattens(func):
    x = Variable(X)
    y = func(x)
    assert y.shape == (6,)
    assert _grad(y, x).shape == (2, 3)


def test_cumsum_negative_axis_and_reverse_gradient():
    x = Variable(X)
    y = F.cumsum(x, -1)
    numpy.testing.assert_array_equal(y.array, [[0, 1, 3], [3, 7, 12]])
    numpy.testing.assert_array_equal(_grad(y, x), [[3, 2, 1], [3, 2, 1]])


@pytest.mark.parametrize('func', [F.cumsum, F.cumprod])
def test_scan_axis_errors(func):
    name = func.__name__
    with pytest.raises(TypeError, match=f'{name}: axis must be an int'):
        func(X, (0,))
    with pytest.raises(type_check.InvalidType, match=name):
        func(X, 2)


# -- inv, det, cholesky ---------------------------------------------------

A = numpy.array([[4.0, 1.0], [2.0, 3.0]], numpy.float32)


@pytest.mark.parametrize('func', [F.inv, F.det, F.cholesky])
def test_matrix_functions_reject_non_square_input(func):
    with pytest.raises(type_check.InvalidType,
                       match=rf'{func.__name__} \(Forward\)(.|\n)*'
                             r'a.shape\[-1\] == a.shape\[-2\]'):
        func(numpy.zeros((2, 3), numpy.float32))


@pytest.mark.parametrize('func', [F.inv, F.det, F.cholesky])
@pytest.mark.parametrize('dtype', [numpy.int32, numpy.complex64])
def test_matrix_functions_want_float_input(func, dtype):
    with pytest.raises(type_check.InvalidType, match='a.dtype.kind == f'):
        func(A.astype(dtype))


@pytest.mark.parametrize('func', [F.batch_inv, F.batch_det])
def test_batch_matrix_functions_need_three_axes(func):
    with pytest.raises(type_check.InvalidType,
                       match=rf'{func.__name__} \(Forward\)(.|\n)*'
                             r'a.ndim == 3'):
        func(A)


@pytest.mark.parametrize('func', [F.inv, F.batch_inv])
def test_inverse_of_singular_matrix_raises_a_value_error(func):
    singular = numpy.zeros((1, 2, 2), numpy.float32)
    if func is F.inv:
        singular = singular[0]
    # The message names the function called (inv or batch_inv).
    with pytest.raises(ValueError,
                       match=f'^{func.__name__}: the input has singular'):
        func(singular)


def test_det_of_singular_matrix_is_zero_and_its_gradient_raises():
    a = Variable(numpy.ones((2, 2), numpy.float32))
    y = F.det(a)
    assert y.shape == () and float(y.array) == 0
    with pytest.raises(numpy.linalg.LinAlgError, match='singular'):
        y.backward()


def test_matrix_functions_keep_float16():
    half = A.astype(numpy.float16)
    for func in (F.inv, F.det):
        assert func(half).dtype == numpy.float16
    assert F.cholesky(half @ half.T).dtype == numpy.float16
    numpy.testing.assert_allclose(F.det(half).array, 10.0, rtol=1e-3)


def test_cholesky_reconstructs_and_rejects_non_positive_definite():
    spd = A @ A.T
    lower = F.cholesky(spd).array
    numpy.testing.assert_allclose(lower @ lower.T, spd, rtol=1e-5)
    assert lower[0, 1] == 0
    with pytest.raises(numpy.linalg.LinAlgError,
                       match='cholesky: the input is not positive'):
        F.cholesky(-numpy.eye(2, dtype=numpy.float32))


def test_inv_backward_against_formula():
    a = Variable(A.astype(numpy.float64))
    gy = numpy.array([[1.0, 2.0], [3.0, 4.0]])
    inverse = numpy.linalg.inv(a.array)
    numpy.testing.assert_allclose(_grad(F.inv(a), a, gy),
                                  -inverse.T @ gy @ inverse.T)


# -- batch_l2_norm_squared, matmul, batch_matmul -------------------------


def test_batch_l2_norm_squared_flattens_all_but_the_batch_axis():
    y = F.batch_l2_norm_squared(numpy.ones((2, 3, 4), numpy.float32))
    numpy.testing.assert_array_equal(y.array, [12, 12])
    with pytest.raises(type_check.InvalidType, match='ndim >= 2'):
        F.batch_l2_norm_squared(numpy.ones(2, numpy.float32))
    for dtype in (numpy.int32, numpy.complex64):
        with pytest.raises(type_check.InvalidType, match='dtype.kind == f'):
            F.batch_l2_norm_squared(numpy.ones((2, 2), dtype))


def test_batch_matmul_is_deprecated_and_reads_2d_as_vectors():
    a = numpy.ones((2, 3), numpy.float32)
    with pytest.warns(DeprecationWarning, match='matmul') as record:
        y = F.batch_matmul(a, a, transa=True)
    # Called from the test itself: the warning names this line, not
    # the decorator's wrapper nor pytest.
    assert [warning.filename for warning in record] == [__file__]
    assert y.shape == (2, 1, 1)
    numpy.testing.assert_array_equal(y.array[:, 0, 0], [3, 3])


def test_batch_matmul_rejects_four_axes():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        with pytest.raises(type_check.InvalidType,
                           match='batch_matmul: a must be 2-D'):
            F.batch_matmul(numpy.ones((2, 3, 2, 2), numpy.float32),
                           numpy.ones((2, 2, 2), numpy.float32))


def test_matmul_node_defaults_to_no_transposition():
    # chainer.functions.math.matmul.MatMul() takes Chainer's defaults.
    a = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    b = numpy.arange(12, dtype=numpy.float32).reshape(3, 4)
    y, = MatMul().apply((a, b))
    numpy.testing.assert_array_equal(y.array, F.matmul(a, b).array)


def test_matmul_rejects_a_zero_dim_operand():
    # As numpy.matmul: a 0-d operand is no vector (not even of length 1).
    scalar = numpy.array(2, numpy.float32)
    with pytest.raises(type_check.InvalidType, match='matmul'):
        F.matmul(scalar, numpy.ones((1, 2), numpy.float32))
    with pytest.raises(type_check.InvalidType, match='matmul'):
        F.matmul(numpy.ones((2, 1), numpy.float32), scalar)


def test_matmul_node_refuses_vectors_that_matmul_reshapes_first():
    vector = numpy.ones(2, numpy.float32)
    matrix = numpy.ones((2, 2), numpy.float32)
    for operands in ((vector, matrix), (matrix, vector)):
        with pytest.raises(type_check.InvalidType, match='ndim >= 2'):
            MatMul().apply(operands)


@pytest.mark.parametrize('a_dtype, b_dtype', [
    (numpy.int32, numpy.float32), (bool, numpy.float32),
    (numpy.float32, numpy.int64), (numpy.float32, numpy.complex64)])
def test_matmul_takes_float_operands_only(a_dtype, b_dtype):
    # dtype kinds on either side of 'f': integers, bools and complex.
    with pytest.raises(type_check.InvalidType, match='dtype.kind == f'):
        F.matmul(numpy.ones((2, 2), a_dtype), numpy.ones((2, 2), b_dtype))


@pytest.mark.parametrize('a_shape, b_shape', [((2, 4), (3, 2)),
                                              ((2, 3), (4, 2))])
def test_matmul_refuses_inner_sizes_that_differ(a_shape, b_shape):
    with pytest.raises(type_check.InvalidType, match='matmul'):
        F.matmul(numpy.ones(a_shape, numpy.float32),
                 numpy.ones(b_shape, numpy.float32))


# -- einsum, tensordot ------------------------------------------------------


def test_einsum_docstring_example_of_chainer():
    x1 = numpy.arange(12).reshape(3, 4).astype(numpy.float32)
    x2 = numpy.arange(15).reshape(3, 5).astype(numpy.float32)
    w = numpy.arange(120).reshape(4, 5, 6).astype(numpy.float32)
    y = F.einsum('ij,ik,jkl->il', x1, x2, w)
    assert y.shape == (3, 6)
    numpy.testing.assert_allclose(
        F.einsum('...j,...k,jkl', x1, x2, w).array, y.array)
    numpy.testing.assert_allclose(
        F.einsum(x1, [0, 1], x2, [0, 2], w, [1, 2, 3], [0, 3]).array,
        y.array)
    numpy.testing.assert_allclose(
        F.einsum(x1, [Ellipsis, 1], x2, [Ellipsis, 2], w, [1, 2, 3]).array,
        y.array)


def test_einsum_implicit_output_is_alphabetical():
    x = numpy.ones((2, 3), numpy.float32)
    assert F.einsum('ba', x).shape == (3, 2)
    assert F.einsum('aB', x).shape == (3, 2)


def test_einsum_trace_gradient_is_the_identity():
    a = Variable(A)
    numpy.testing.assert_array_equal(_grad(F.einsum('ii', a), a),
                                     numpy.eye(2))


@pytest.mark.parametrize('args, error, match', [
    (('ij->k', X), ValueError, "output subscript 'k'"),
    (('ij,jk', X), ValueError, '2 subscript terms given for 1 operands'),
    (('ij', X, X), ValueError, '1 subscript terms given for 2 operands'),
    (('i', X), ValueError, 'operand 0 has 2 axes'),
    (('ijk', X), ValueError, 'operand 0 has 2 axes'),
    (('...i...', X), ValueError, 'at most one'),
    (('i2', X), ValueError, 'letters'),
    (('ij->ii', X), ValueError, 'repeat'),
    ((), ValueError, 'no subscripts'),
    ((X, [0, 99]), ValueError, 'sublist'),
    ((X, [0, 52]), ValueError, 'sublist'),
    ((X, [0, -1]), ValueError, 'sublist'),
    (('...i->i', X), ValueError, 'output subscripts have no "..."'),
    (('...', numpy.ones((1,) * 53)), ValueError, 'too many axes'),
    (('i', [1.0]), TypeError, 'input 0 must be'),
])
def test_einsum_argument_errors(args, error, match):
    with pytest.raises(error, match=f'einsum: .*{match}'):
        F.einsum(*args)


def test_einsum_sizes_must_match_exactly():
    with pytest.raises(type_check.InvalidType, match='einsum'):
        F.einsum('i,i->', numpy.ones(3, numpy.float32),
                 numpy.ones(1, numpy.float32))


def test_einsum_sizes_are_compared_whichever_comes_first():
    with pytest.raises(type_check.InvalidType, match='einsum'):
        F.einsum('i,i->', numpy.ones(1, numpy.float32),
                 numpy.ones(3, numpy.float32))


def test_einsum_forms_and_the_ellipsis_at_their_limits():
    numpy.testing.assert_array_equal(
        F.einsum(X, [0, 1], X, [0, 2]).array, F.einsum('ij,ik', X, X).array)
    numpy.testing.assert_array_equal(F.einsum('...i->...', X).array,
                                     X.sum(axis=1))
    # An ellipsis as wide as the 52 letters einsum has.
    x = numpy.ones((1,) * 52, numpy.float32)
    assert F.einsum('...', x).shape == x.shape


@pytest.mark.parametrize('dtypes', [
    (numpy.int32,), (bool,), (numpy.complex64,),
    (numpy.float32, numpy.float64), (numpy.float64, numpy.float32)])
def test_einsum_takes_float_operands_of_one_dtype(dtypes):
    operands = [numpy.ones(2, dtype) for dtype in dtypes]
    terms = ','.join(['i'] * len(operands))
    with pytest.raises(type_check.InvalidType, match='einsum'):
        F.einsum(f'{terms}->', *operands)


def test_einsum_node_refuses_an_operand_of_other_axes_than_its_term():
    with pytest.raises(type_check.InvalidType, match='x0.ndim == 1'):
        EinSum(('i',), 'i').apply((X,))
    with pytest.raises(type_check.InvalidType, match='x0.ndim == 3'):
        EinSum(('ijk',), 'i').apply((X,))


def test_tensordot_shapes_and_errors():
    a = numpy.ones((5, 3, 2), numpy.float32)
    assert F.tensordot(a, numpy.ones((3, 2, 4), numpy.float32)).shape == \
        (5, 4)
    assert F.tensordot(a, numpy.ones((2, 3, 4), numpy.float32),
                       axes=([1, 2], [1, 0])).shape == (5, 4)
    assert F.tensordot(a, a, axes=0).shape == (5, 3, 2, 5, 3, 2)
    with pytest.raises(ValueError, match='tensordot: axis 2 of a'):
        F.tensordot(a, numpy.ones((3, 4), numpy.float32), axes=1)
    with pytest.raises(ValueError, match='tensordot: axis 2 of a'):
        F.tensordot(a, numpy.ones((1, 4), numpy.float32), axes=1)
    assert F.tensordot(a, numpy.ones((2, 4)), axes=1).dtype == \
        numpy.float64
    for axes in (4, -1):
        with pytest.raises(ValueError, match=r'tensordot: axes must be in'):
            F.tensordot(a, a, axes=axes)
    for axes in (((0, 1), (0,)), ((0,), (0, 1))):
        with pytest.raises(ValueError, match='tensordot: axes pairs'):
            F.tensordot(a, a, axes=axes)
    # As Chainer: an axis out of range or axes not a pair is a ValueError,
    # axes of another type a TypeError.
    with pytest.raises(ValueError, match=r'axes\[0\] must be in \[-3, 3\)'):
        F.tensordot(a, a, axes=((0, 1, 2, 3), (0, 1, 2, 3)))
    with pytest.raises(ValueError, match='must be a pair of sequence'):
        F.tensordot(a, a, axes=())
    with pytest.raises(ValueError, match='must be a pair of sequence'):
        F.tensordot(a, a, axes=((), (), ()))
    with pytest.raises(TypeError, match='axes must be an int or a pair'):
        F.tensordot(a, a, axes=1.0)


# -- fft, ifft ---------------------------------------------------------------


def test_ifft_inverts_fft_and_keeps_float16():
    real = numpy.array([[1.0, 2.0, 0.0, -1.0]], numpy.float16)
    imag = numpy.array([[0.5, 0.0, 1.0, 0.0]], numpy.float16)
    y_real, y_imag = F.fft((real, imag))
    assert y_real.dtype == numpy.float16
    back_real, back_imag = F.ifft([y_real, y_imag])
    numpy.testing.assert_allclose(back_real.array, real, atol=1e-2)
    numpy.testing.assert_allclose(back_imag.array, imag, atol=1e-2)


def test_fft_argument_errors():
    with pytest.raises(TypeError, match=r'fft: x must be a pair'):
        F.fft(X)
    with pytest.raises(type_check.InvalidType, match='real.shape == '):
        F.fft((X, X[:, :2]))
    for pair in ((X,), (X, X, X)):
        with pytest.raises(TypeError, match=r'fft: x must be a pair'):
            F.fft(pair)
    scalar = numpy.array(1.0, numpy.float32)
    complex_x = X.astype(numpy.complex64)
    for pair, check in (((scalar, scalar), 'real.ndim'),
                        ((complex_x, complex_x), 'real.dtype.kind == f'),
                        ((X.astype(int), X.astype(int)),
                         'real.dtype.kind == f'),
                        ((X, X.astype(numpy.float64)), 'real.dtype == '),
                        ((X.astype(numpy.float64), X), 'real.dtype == ')):
        with pytest.raises(type_check.InvalidType, match=check):
            F.fft(pair)


def test_fft_gradient_of_one_output_only():
    real = Variable(X.astype(numpy.float64))
    imag = Variable(numpy.zeros((2, 3)))
    y_real, _ = F.fft((real, imag))
    # d sum(Re fft(x)) / dx_n = sum_k cos(2 pi k n / N): N at n = 0.
    numpy.testing.assert_allclose(_grad(y_real, real), [[3, 0, 0]] * 2,
                                  atol=1e-12)


# -- CooMatrix, to_coo, sparse_matmul --------------------------------------


def test_to_coo_against_chainer_example():
    dense = numpy.array([[0, 2, 0], [-1, 0, 0]], numpy.float32)
    sparse = to_coo(dense, ldnz=4)
    numpy.testing.assert_array_equal(sparse.data.array, [2, -1, 0, 0])
    assert sparse.row.dtype == numpy.int32
    numpy.testing.assert_array_equal(sparse.row, [0, 1, -1, -1])
    numpy.testing.assert_array_equal(sparse.col, [1, 0, -1, -1])
    assert sparse.shape == (2, 3) and sparse.order == 'C'
    numpy.testing.assert_array_equal(sparse.to_dense(), dense)


def test_to_coo_of_a_batch_pads_to_the_longest():
    dense = numpy.array([[[0, 2, 0], [-1, 0, 0]], [[1, 1, 0], [0, 0, 1]]],
                        numpy.float32)
    sparse = to_coo(dense)
    assert sparse.data.shape == (2, 3) and sparse.shape == (2, 3)
    numpy.testing.assert_array_equal(sparse.row, [[0, 1, -1], [0, 0, 1]])
    numpy.testing.assert_array_equal(sparse.to_dense(), dense)
    with pytest.raises(ValueError, match='to_coo: x must have 2 or 3'):
        to_coo(dense[0, 0])


def test_coo_matrix_order_and_validation():
    data = numpy.array([1.0, 2.0])
    assert CooMatrix(data, numpy.array([1, 0]), numpy.array([0, 1]),
                     (2, 2)).order == 'F'
    assert CooMatrix(data, numpy.array([1, 0]), numpy.array([1, 0]),
                     (2, 2)).order == 'other'
    with pytest.raises(ValueError, match='CooMatrix: row and col'):
        CooMatrix(data, numpy.array([0, 1, 2]), numpy.array([1, 1]), (2, 2))
    with pytest.raises(ValueError, match='CooMatrix: shape must have '
                                         'length 2'):
        CooMatrix(data, numpy.array([0, 1]), numpy.array([1, 1]), (2, 2, 2))
    with pytest.raises(ValueError, match='CooMatrix: order'):
        CooMatrix(data, numpy.array([0, 1]), numpy.array([1, 1]), (2, 2),
                  order='X')


def test_sparse_matmul_values_and_gradient_to_the_entries():
    sparse = to_coo(numpy.array([[0, 2, 0], [-1, 0, 0]], numpy.float32),
                    ldnz=4, requires_grad=True)
    y = F.sparse_matmul(sparse, numpy.ones((3, 2), numpy.float32))
    numpy.testing.assert_array_equal(y.array, [[2, 2], [-1, -1]])
    F.sum(y).backward()
    # Padding entries get no gradient.
    numpy.testing.assert_array_equal(sparse.data.grad, [2, 2, 0, 0])
    y = F.sparse_matmul(numpy.ones((2, 2), numpy.float32), sparse)
    numpy.testing.assert_array_equal(y.array, [[-1, 2, 0], [-1, 2, 0]])


def test_sparse_matmul_argument_errors():
    sparse = to_coo(numpy.eye(2, dtype=numpy.float32))
    with pytest.raises(ValueError, match='sparse_matmul: exactly one'):
        F.sparse_matmul(X, X)
    # Inner sizes that differ, either way; a dense operand of one axis
    # too many.
    for shape in ((3, 2), (1, 2), (1, 2, 2)):
        with pytest.raises(type_check.InvalidType, match='sparse_matmul'):
            F.sparse_matmul(sparse, numpy.ones(shape, numpy.float32))
    # Integer, bool or complex entries or dense operand.
    for dtype in (numpy.int32, bool, numpy.complex64):
        with pytest.raises(type_check.InvalidType, match='sparse_matmul'):
            F.sparse_matmul(sparse, numpy.ones((2, 2), dtype))
        with pytest.raises(type_check.InvalidType, match='sparse_matmul'):
            F.sparse_matmul(to_coo(numpy.eye(2, dtype=dtype)),
                            numpy.ones((2, 2), numpy.float32))
    # A batch of sparse matrices takes a dense batch of the same length.
    batch = to_coo(numpy.stack([numpy.eye(2, dtype=numpy.float32)] * 2))
    for length in (1, 3):
        with pytest.raises(type_check.InvalidType, match='sparse_matmul'):
            F.sparse_matmul(batch, numpy.ones((length, 2, 2), numpy.float32))
    with pytest.raises(type_check.InvalidType, match='sparse_matmul'):
        F.sparse_matmul(batch, numpy.ones((2, 2), numpy.float32))


@pytest.mark.parametrize('row, col', [([0, -1], [1, 0]), ([0, 1], [1, -1])])
def test_sparse_entries_with_a_negative_row_or_column_are_padding(row, col):
    sparse = CooMatrix(numpy.array([1.0, 7.0], numpy.float32),
                       numpy.array(row), numpy.array(col), (2, 2),
                       requires_grad=True)
    y = F.sparse_matmul(sparse, numpy.array([[1.0, 2.0], [3.0, 4.0]],
                                            numpy.float32))
    numpy.testing.assert_array_equal(y.array, [[3, 4], [0, 0]])
    F.sum(y).backward()
    numpy.testing.assert_array_equal(sparse.data.grad, [7, 0])


# -- forget ------------------------------------------------------------------


def test_sparse_matmul_replays_each_calls_pattern():
    rng = numpy.random.RandomState(0)

    def product(data, row, col, dense):
        sparse = CooMatrix(data, row.array, col.array, (3, 2))
        return F.sparse_matmul(sparse, dense, transb=True)
    check_replays(product, [
        (rng.uniform(-1, 1, 4), rng.randint(-1, 3, 4), rng.randint(0, 2, 4),
         rng.uniform(-1, 1, (5, 2))) for _ in range(3)])


def test_forget_matches_the_plain_call_and_recomputes():
    calls = []

    def func(a, b):
        calls.append(configuration.config.in_recomputing)
        return (a + b) * a

    x = Variable(numpy.array([1.0, 2.0]))
    y = Variable(numpy.array([3.0, -1.0]))
    z = F.forget(func, x, y)
    assert z.creator.label == 'forget'
    numpy.testing.assert_array_equal(z.array, [4.0, 2.0])
    F.sum(z).backward()
    assert calls == [False, True]
    numpy.testing.assert_array_equal(x.grad, 2 * x.array + y.array)
    numpy.testing.assert_array_equal(y.grad, x.array)


def test_forget_returns_one_variable_for_one_output_and_takes_arrays():
    """As in Chainer, a tuple of one output comes back as that Variable;
    several as a tuple."""
    y = F.forget(lambda a: (a * 2,), numpy.ones(2, numpy.float32))
    assert isinstance(y, Variable) and y.creator is not None
    pair = F.forget(lambda a: (a * 2, a * 3), numpy.ones(2, numpy.float32))
    assert isinstance(pair, tuple) and len(pair) == 2


def test_forget_rejects_non_variable_results():
    with pytest.raises(TypeError, match='forget: func must be callable'):
        F.forget(1)
    with pytest.raises(RuntimeError, match='forget: func must return'):
        F.forget(lambda a: [a], X)
    v = Variable(X)
    for n, word in [(1, '1st'), (2, '2nd'), (3, '3rd'), (4, '4th'),
                    (11, '11th'), (12, '12th'), (13, '13th'), (21, '21st'),
                    (22, '22nd'), (111, '111th')]:
        with pytest.raises(RuntimeError, match=f'the {word} element .*int'):
            F.forget(lambda: (v,) * (n - 1) + (1,))


def test_forget_gives_the_parameters_of_func_their_gradients():
    from kusari.autograd import Parameter
    w = Parameter(numpy.array([2.0, -1.0]))
    x = Variable(numpy.array([1.0, 3.0]))
    F.sum(F.forget(lambda a: a * w, x)).backward()
    numpy.testing.assert_array_equal(w.grad, x.array)
    numpy.testing.assert_array_equal(x.grad, w.array)


def test_forget_tells_func_that_it_will_recompute():
    seen = []

    def func(a):
        seen.append((getattr(configuration.config, '_will_recompute', False),
                     configuration.config.in_recomputing))
        return a * 2

    F.sum(F.forget(func, Variable(numpy.ones(2)))).backward()
    assert seen == [(True, False), (False, True)]


def test_forget_refuses_double_backprop():
    x = Variable(numpy.array([1.0, 2.0]))
    z = F.forget(lambda a: a * a, x)
    with pytest.raises(RuntimeError, match='forget: double backprop'):
        function_node.grad([F.sum(z)], [x], enable_double_backprop=True)


# -- GPU ---------------------------------------------------------------


@pytest.mark.gpu
def test_gpu_matches_cpu():
    import cupy
    spd = (A @ A.T).astype(numpy.float32)
    for func in (F.inv, F.det, F.cholesky, F.logsumexp,
                 lambda a: F.einsum('ij,jk', a, a)):
        numpy.testing.assert_allclose(
            cupy.asnumpy(func(cupy.asarray(spd)).array), func(spd).array,
            rtol=1e-4)
    sparse = to_coo(cupy.asarray(A))
    y = F.sparse_matmul(sparse, cupy.ones((2, 2), numpy.float32))
    numpy.testing.assert_allclose(cupy.asnumpy(y.array), A @ numpy.ones(
        (2, 2), numpy.float32))
    with pytest.raises(ValueError, match='inv: the input has singular'):
        F.inv(cupy.zeros((2, 2), numpy.float32))
