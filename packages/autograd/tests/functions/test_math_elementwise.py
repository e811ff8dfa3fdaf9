"""Elementwise math functions: what the conformance records cannot say.

Piecewise constant functions, options and argument errors, numerical
stability at extreme arguments, and broadcasting of parameters.
"""
import sys

import numpy
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from kusari.autograd import function_node
from kusari.autograd import functions as F
from kusari.autograd.functions.math import _ufunc_nodes
from kusari.autograd.functions.math import basic_math
from kusari.autograd.utils import type_check
from kusari.autograd.variable import Variable

from static_replays import check_replays


def _grads(y, *xs):
    return function_node.grad([F.sum(y)], list(xs))


# -- piecewise constant functions --------------------------------------

PIECEWISE = [(F.ceil, numpy.ceil), (F.floor, numpy.floor),
             (F.fix, numpy.fix), (F.sign, numpy.sign)]


@pytest.mark.parametrize('func, expected', PIECEWISE)
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64, numpy.int32])
def test_piecewise_constant_values_and_dtype(func, expected, dtype):
    x = numpy.array([-2.5, -1, -0.5, 0, 0.5, 1.5, 3], dtype=dtype)
    y = func(x)
    assert isinstance(y, Variable)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, expected(x))


@pytest.mark.parametrize('func, expected', PIECEWISE)
def test_piecewise_constant_records_no_graph(func, expected):
    x = Variable(numpy.array([-1.5, 0.5], dtype=numpy.float32))
    y = func(x)
    assert not y.requires_grad
    assert y.creator is None


@pytest.mark.parametrize('func, expected', PIECEWISE)
def test_piecewise_constant_replays_each_calls_values(func, expected):
    rng = numpy.random.RandomState(0)
    check_replays(lambda x: func(x) * 2 + x,
                  [(rng.uniform(-3, 3, 5),) for _ in range(4)])


@pytest.mark.parametrize('func, expected', PIECEWISE)
def test_piecewise_constant_zero_dim_gives_array(func, expected):
    assert isinstance(func(numpy.array(-1.5)).array, numpy.ndarray)


def test_piecewise_constant_rejects_a_list():
    with pytest.raises(TypeError, match='floor: input x must be a Variable or '
                                        'an array, got list'):
        F.floor([1.5])


def test_piecewise_constant_docstring_and_name():
    assert F.floor.__name__ == 'floor'
    assert F.floor.__module__ == 'kusari.autograd.functions.math.floor'
    assert 'greatest integer' in F.floor.__doc__
    assert 'records no graph' in F.floor.__doc__


@given(hnp.arrays(numpy.float64, hnp.array_shapes(max_dims=2),
                  elements=st.floats(-1e6, 1e6)))
def test_fix_is_floor_or_ceil_towards_zero(x):
    expected = numpy.where(x >= 0, numpy.floor(x), numpy.ceil(x))
    numpy.testing.assert_array_equal(F.fix(x).array, expected)


# -- type checks ---------------------------------------------------------

@pytest.mark.parametrize('func', [F.sin, F.sqrt, F.erf, F.lgamma, F.expm1,
                                  F.rsqrt, F.log2, F.exp, F.log])
@pytest.mark.parametrize('dtype', [numpy.int32, numpy.bool_, numpy.complex64])
def test_unary_rejects_non_float_input(func, dtype):
    with pytest.raises(type_check.InvalidType,
                       match=rf'{func.__name__} \(Forward\)'):
        func(numpy.array([1, 2], dtype=dtype))


BINARY = [F.arctan2, F.fmod, F.maximum, F.minimum, F.squared_difference]


@pytest.mark.parametrize('func', BINARY)
@pytest.mark.parametrize('dtypes', [(numpy.float32, numpy.float64),
                                    (numpy.float64, numpy.float32)])
def test_binary_rejects_mixed_dtypes(func, dtypes):
    with pytest.raises(type_check.InvalidType, match='dtype'):
        func(*(numpy.ones(2, dtype) for dtype in dtypes))


@pytest.mark.parametrize('dtype', [numpy.int32, numpy.bool_, numpy.complex64])
def test_check_float_input_refuses_other_kinds(dtype):
    # The one-input check of sigmoid, leaky_relu, rrelu and the softmaxes.
    class OneFloat(function_node.FunctionNode):
        def check_type_forward(self, in_types):
            _ufunc_nodes.check_float_input(in_types)

    with pytest.raises(type_check.InvalidType, match=r'x\.dtype\.kind'):
        OneFloat().apply((numpy.ones(2, dtype),))


@pytest.mark.parametrize('func', BINARY)
@pytest.mark.parametrize('dtype', [numpy.int32, numpy.bool_])
def test_binary_rejects_non_float_operands(func, dtype):
    with pytest.raises(type_check.InvalidType, match='dtype.kind'):
        func(numpy.ones(2, dtype), numpy.ones(2, dtype))


def test_binary_rejects_shapes_that_do_not_broadcast():
    with pytest.raises(type_check.InvalidType, match='broadcast'):
        F.maximum(numpy.ones(2, numpy.float32), numpy.ones(3, numpy.float32))


@pytest.mark.parametrize('shapes', [((2, 3), (3,)), ((3, 3), (3,)),
                                    ((3,), (3, 3))])
def test_squared_difference_needs_equal_shapes(shapes):
    with pytest.raises(type_check.InvalidType, match='shape'):
        F.squared_difference(*(numpy.ones(shape, numpy.float32)
                               for shape in shapes))


def test_linear_interpolate_checks_names_shapes_and_dtypes():
    p = numpy.full(3, 0.5, numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r'p\.shape == y\.shape'):
        F.linear_interpolate(p, p, numpy.ones(2, numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r'p\.dtype == y\.dtype'):
        F.linear_interpolate(p, p, p.astype(numpy.float64))
    for q in (numpy.ones(3, numpy.int32), numpy.ones(3, numpy.complex64)):
        with pytest.raises(type_check.InvalidType, match=r'p\.dtype\.kind'):
            F.linear_interpolate(q, q, q)
    # Either order of two float dtypes, either order of two lengths.
    for x in (p.astype(numpy.float64), p.astype(numpy.float16)):
        with pytest.raises(type_check.InvalidType,
                           match=r'p\.dtype == x\.dtype'):
            F.linear_interpolate(p, x, p)
    for x in (numpy.ones(2, numpy.float32), numpy.ones(4, numpy.float32)):
        with pytest.raises(type_check.InvalidType,
                           match=r'p\.shape == x\.shape'):
            F.linear_interpolate(p, x, p)


def test_polygamma_needs_integer_orders():
    x = numpy.ones(3, numpy.float32)
    for n in (numpy.ones(3, numpy.float32), numpy.ones(3, numpy.uint8)):
        with pytest.raises(type_check.InvalidType, match=r'n\.dtype\.kind'):
            F.polygamma(n, x)
    with pytest.raises(TypeError, match='polygamma: n must be'):
        F.polygamma('1', x)


@pytest.mark.parametrize('func, dtype', [(F.polygamma, numpy.int32),
                                         (F.zeta, numpy.float32)])
def test_parameters_that_do_not_broadcast_with_x(func, dtype):
    with pytest.raises(type_check.InvalidType, match='broadcast'):
        func(numpy.ones(3, dtype), numpy.ones(2, numpy.float32))


def test_zeta_needs_float_q():
    with pytest.raises(type_check.InvalidType, match=r'q\.dtype\.kind'):
        F.zeta(2.0, numpy.ones(3, numpy.int32))


# -- clip ----------------------------------------------------------------

def test_clip_with_one_bound():
    x = numpy.array([-2.0, 0.0, 2.0], numpy.float32)
    numpy.testing.assert_array_equal(F.clip(x, None, 1.0).array, [-2, 0, 1])
    numpy.testing.assert_array_equal(F.clip(x, -1.0, None).array,
                                     [-1, 0, 2])


def test_clip_gradient_passes_at_the_bounds_and_inside_only():
    x = Variable(numpy.array([-2.0, -1.0, 0.0, 1.0, 2.0], numpy.float32))
    gx, = _grads(F.clip(x, -1.0, 1.0), x)
    numpy.testing.assert_array_equal(gx.array, [0, 1, 1, 1, 0])
    gx, = _grads(F.clip(x, None, 0.0), x)
    numpy.testing.assert_array_equal(gx.array, [1, 1, 1, 0, 0])


def test_clip_float64_bounds_keep_float16():
    x = numpy.array([0.1, 3.0], numpy.float16)
    y = F.clip(x, numpy.float64(0.5), numpy.float64(2.0))
    assert y.dtype == numpy.float16
    numpy.testing.assert_array_equal(y.array, [0.5, 2.0])


@pytest.mark.parametrize('x_min, x_max, error, message', [
    (None, None, ValueError, 'x_min and x_max are both None'),
    (1.0, 1.0, ValueError, 'x_min must be less than x_max'),
    (2.0, 1.0, ValueError, 'x_min must be less than x_max'),
    (numpy.zeros(2), 1.0, TypeError, 'x_min must be a real scalar'),
    (0.0, '1', TypeError, 'x_max must be a real scalar'),
    (True, 2.0, TypeError, 'x_min must be a real scalar'),
])
def test_clip_bad_bounds(x_min, x_max, error, message):
    with pytest.raises(error, match=f'clip: {message}'):
        F.clip(numpy.zeros(3, numpy.float32), x_min, x_max)


def test_clip_rejects_integer_input():
    with pytest.raises(type_check.InvalidType):
        F.clip(numpy.array([1, 2]), 0, 1)


@given(hnp.arrays(numpy.float32, hnp.array_shapes(max_dims=2),
                  elements=st.floats(-10, 10, width=32)))
def test_clip_stays_within_bounds(x):
    y = F.clip(x, -1.5, 2.5).array
    assert y.min(initial=-1.5) >= -1.5 and y.max(initial=2.5) <= 2.5
    inside = (x >= -1.5) & (x <= 2.5)
    numpy.testing.assert_array_equal(y[inside], x[inside])


# -- maximum and minimum -----------------------------------------------

@pytest.mark.parametrize('func', [F.maximum, F.minimum])
def test_selection_gives_ties_to_the_first_operand(func):
    x1 = Variable(numpy.array([1.0, 2.0], numpy.float32))
    x2 = Variable(numpy.array([1.0, 2.0], numpy.float32))
    g1, g2 = _grads(func(x1, x2), x1, x2)
    numpy.testing.assert_array_equal(g1.array, [1, 1])
    numpy.testing.assert_array_equal(g2.array, [0, 0])


def test_maximum_gradient_sums_over_broadcast_axes():
    x1 = Variable(numpy.array([[0.0, 5.0], [3.0, 1.0]], numpy.float32))
    x2 = Variable(numpy.array([2.0], numpy.float32))
    g1, g2 = _grads(F.maximum(x1, x2), x1, x2)
    numpy.testing.assert_array_equal(g1.array, [[0, 1], [1, 0]])
    numpy.testing.assert_array_equal(g2.array, [2])


# -- fmod ----------------------------------------------------------------

def test_fmod_takes_the_sign_of_the_dividend():
    x = numpy.array([-3.0, 3.0, -3.0, 3.0], numpy.float32)
    d = numpy.array([2.0, 2.0, -2.0, -2.0], numpy.float32)
    numpy.testing.assert_array_equal(F.fmod(x, d).array, [-1, 1, -1, 1])


def test_fmod_gradients():
    x = Variable(numpy.array([7.5, -7.5], numpy.float64))
    d = Variable(numpy.array([2.0, 2.0], numpy.float64))
    gx, gd = _grads(F.fmod(x, d), x, d)
    numpy.testing.assert_array_equal(gx.array, [1, 1])
    numpy.testing.assert_array_equal(gd.array, [-3, 3])


# -- bias and scale ------------------------------------------------------

@pytest.mark.parametrize('func, op', [(F.bias, numpy.add),
                                      (F.scale, numpy.multiply)])
def test_axis_operand_default_axis_is_one(func, op):
    x = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)
    y = numpy.array([1.0, 2.0, 3.0], numpy.float32)
    numpy.testing.assert_array_equal(
        func(x, y).array, op(x, y[None, :, None]))


@pytest.mark.parametrize('func', [F.bias, F.scale])
def test_axis_operand_gradient_of_y_sums_over_other_axes(func):
    x = Variable(numpy.ones((2, 3, 4), numpy.float32))
    y = Variable(numpy.ones(4, numpy.float32))
    gx, gy = _grads(func(x, y, axis=2), x, y)
    assert gx.shape == (2, 3, 4)
    numpy.testing.assert_array_equal(gy.array, numpy.full(4, 6))


@pytest.mark.parametrize('func', [F.bias, F.scale])
@pytest.mark.parametrize('y_shape, axis, error, message', [
    ((4,), 1, ValueError, r'y.shape \(4,\) must match x.shape\[1:2\]'),
    # An empty side (0 is no 1) does not broadcast either.
    ((0,), 1, ValueError, r'y.shape \(0,\) must match x.shape\[1:2\]'),
    ((3, 4), 2, ValueError, 'axis must be in'),
    ((3,), -1, ValueError, 'axis must be in'),
    ((3,), 1.0, TypeError, 'axis must be an int'),
])
def test_axis_operand_errors(func, y_shape, axis, error, message):
    x = numpy.ones((2, 3, 4), numpy.float32)
    with pytest.raises(error, match=f'{func.__name__}: {message}'):
        func(x, numpy.ones(y_shape, numpy.float32), axis)


# -- add and identity ---------------------------------------------------

def test_add_of_one_array_gives_a_variable_holding_it():
    x = numpy.arange(3, dtype=numpy.float32)
    y = F.add(x)
    assert isinstance(y, Variable) and y.array is x


def test_add_needs_an_input():
    with pytest.raises(ValueError, match='add: at least one input'):
        F.add()


def test_identity_of_no_input_is_an_empty_tuple():
    assert F.identity() == ()


# -- special functions -------------------------------------------------

def test_polygamma_orders_broadcast_and_gradient_sums_back():
    # y of shape (2, 3), x of shape (3,): y's shape sorts before x's.
    n = numpy.array([[0], [1]])
    x = Variable(numpy.array([1.5, 2.5, 3.5]))
    y = F.polygamma(n, x)
    assert y.shape == (2, 3)
    gx, = _grads(y, x)
    import scipy.special
    expected = (scipy.special.polygamma(1, x.array)
                + scipy.special.polygamma(2, x.array))
    numpy.testing.assert_allclose(gx.array, expected, rtol=1e-12)


def test_polygamma_and_zeta_take_scalar_parameters():
    q = numpy.array([1.0, 2.0], numpy.float32)
    numpy.testing.assert_allclose(
        F.zeta(2, q).array, [numpy.pi ** 2 / 6, numpy.pi ** 2 / 6 - 1],
        rtol=1e-6)
    numpy.testing.assert_allclose(
        F.polygamma(1, q).array, [numpy.pi ** 2 / 6, numpy.pi ** 2 / 6 - 1],
        rtol=1e-6)


def test_parameters_get_no_gradient():
    n = Variable(numpy.array([1, 2]))
    x = Variable(numpy.array([1.5, 2.5]))
    y = F.polygamma(n, x)
    F.sum(y).backward()
    assert n.grad is None
    assert x.grad is not None


def test_digamma_gradient_is_trigamma():
    x = Variable(numpy.array([0.5, 1.0, 3.0]))
    gx, = _grads(F.digamma(x), x)
    numpy.testing.assert_allclose(
        gx.array, [numpy.pi ** 2 / 2, numpy.pi ** 2 / 6,
                   numpy.pi ** 2 / 6 - 1 - 1 / 4], rtol=1e-12)


def test_log_ndtr_is_finite_far_in_the_lower_tail():
    x = Variable(numpy.array([-40.0, -1e4], numpy.float32))
    y = F.log_ndtr(x)
    assert numpy.isfinite(y.array).all()
    gx, = _grads(y, x)
    # d/dx log Phi(x) ~ -x for x -> -inf.
    numpy.testing.assert_allclose(gx.array, -x.array, rtol=1e-3)


def test_erfcx_and_lgamma_are_finite_at_1e4_in_float32():
    x = Variable(numpy.array([1e4], numpy.float32))
    y = F.erfcx(x)
    numpy.testing.assert_allclose(y.array, 1 / (1e4 * numpy.sqrt(numpy.pi)),
                                  rtol=1e-4)
    gx, = _grads(y, x)
    assert numpy.isfinite(gx.array).all()
    assert numpy.isfinite(F.lgamma(x).array).all()


def test_expm1_and_log1p_are_accurate_near_zero():
    x = numpy.array([1e-10, -1e-12], numpy.float32)
    numpy.testing.assert_allclose(F.expm1(x).array, x, rtol=1e-6)
    numpy.testing.assert_allclose(F.log1p(x).array, x, rtol=1e-6)


def test_inverse_functions_round_trip():
    x = numpy.linspace(-0.9, 0.9, 7)
    numpy.testing.assert_allclose(F.erf(F.erfinv(x)).array, x, rtol=1e-12)
    numpy.testing.assert_allclose(F.erfc(F.erfcinv(x + 1)).array, x + 1,
                                  rtol=1e-12)
    numpy.testing.assert_allclose(F.ndtr(F.ndtri(x / 2 + 0.5)).array,
                                  x / 2 + 0.5, rtol=1e-12)


def test_special_functions_name_scipy_when_it_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, 'scipy.special', None)
    with pytest.raises(ImportError, match='need SciPy'):
        F.erf(numpy.zeros(2, numpy.float32))


@pytest.mark.parametrize('func', [F.erf, F.digamma, F.ndtri])
def test_special_function_float16_stays_float16(func):
    y = func(numpy.array([0.25, 0.5], numpy.float16))
    assert y.dtype == numpy.float16


# -- labels and the helper's contract ----------------------------------

@pytest.mark.parametrize('func, args', [
    (F.sin, (numpy.ones(2, numpy.float32),)),
    (F.lgamma, (numpy.ones(2, numpy.float32),)),
    (F.arctan2, (numpy.ones(2, numpy.float32),) * 2),
    (F.clip, (numpy.ones(2, numpy.float32), 0.0, 2.0)),
    (F.linear_interpolate, (numpy.ones(2, numpy.float32),) * 3),
])
def test_label_is_the_public_name(func, args):
    x = Variable(args[0])
    y = func(x, *args[1:])
    assert y.creator.label == func.__name__


@pytest.mark.parametrize('make, label', [
    (lambda x: x * 2, '_ * 2'), (lambda x: x * 2.0, '_ * 2.0'),
    (lambda x: x * -2.5, '_ * (-2.5)'), (lambda x: x - 3, '_ + (-3)'),
    (lambda x: 1 - x, '1 - _'), (lambda x: 2 ** x, '2 ** _'),
    (lambda x: x ** 2, '_ ** 2'), (lambda x: x / 4, '_ / 4'),
], ids=['mul', 'mul_float', 'mul_negative', 'sub', 'rsub', 'rpow', 'pow',
        'div'])
def test_constant_labels_show_the_constant_as_written(make, label):
    # As Chainer's: the value the caller wrote, a negative one in
    # parentheses (the node computes with it in x's dtype).
    y = make(Variable(numpy.ones(2, numpy.float32)))
    assert y.creator.label == label
    assert y.dtype == numpy.float32


def test_rsqrt_does_not_modify_its_input():
    x = numpy.array([4.0, 0.25], numpy.float32)
    numpy.testing.assert_array_equal(F.rsqrt(x).array, [0.5, 2.0])
    numpy.testing.assert_array_equal(x, [4.0, 0.25])


def test_retained_arrays_follow_the_declaration():
    x = Variable(numpy.array([0.5], numpy.float32))
    tan = F.tan(x).creator
    assert tan.get_retained_inputs() == ()
    assert len(tan.get_retained_outputs()) == 1
    sin = F.sin(x).creator
    assert len(sin.get_retained_inputs()) == 1
    assert sin.get_retained_outputs() == ()


def test_helper_parameter_array_converts_scalars_to_the_device_of_like():
    n = _ufunc_nodes.parameter_array('f', 'n', 2, numpy.ones(3))
    assert isinstance(n, numpy.ndarray) and n.shape == ()


# -- GPU -----------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize('func', [F.sin, F.erf, F.lgamma, F.rsqrt, F.floor])
def test_gpu_matches_cpu(func):
    import cupy
    x = numpy.array([0.5, 1.5, 2.5], numpy.float32)
    y = func(cupy.asarray(x))
    assert isinstance(y.array, cupy.ndarray)
    numpy.testing.assert_allclose(cupy.asnumpy(y.array), func(x).array,
                                  rtol=1e-5)


@pytest.mark.gpu
def test_gpu_linear_interpolate_and_polygamma():
    import cupy
    p, x, y = (numpy.array([0.25, 0.5], numpy.float32),
               numpy.array([1.0, 2.0], numpy.float32),
               numpy.array([3.0, -1.0], numpy.float32))
    z = F.linear_interpolate(*[cupy.asarray(a) for a in (p, x, y)])
    numpy.testing.assert_allclose(cupy.asnumpy(z.array), [2.5, 0.5])
    q = Variable(cupy.asarray(x))
    gq, = _grads(F.polygamma(cupy.asarray([1, 2]), q), q)
    assert isinstance(gq.array, cupy.ndarray)


@pytest.mark.parametrize('operate', [
    F.add, lambda a, b: a - b, lambda a, b: a * b, lambda a, b: a / b,
    lambda a, b: a ** b])
@pytest.mark.parametrize('shape_b, dtype_b', [
    ((2, 3), numpy.float64),  # a wider dtype
    ((2, 3), numpy.float16),  # a narrower one
    ((4,), numpy.float32),  # shapes that do not broadcast
])
def test_binary_operands_checked_as_in_chainer(operate, shape_b, dtype_b):
    """Two Variables of different dtypes or unbroadcastable shapes: an
    InvalidType before any computing, as Chainer 7.8.1 raises."""
    a = Variable(numpy.ones((2, 3), numpy.float32))
    b = Variable(numpy.ones(shape_b, dtype_b))
    with pytest.raises(type_check.InvalidType):
        operate(a, b)


def test_constant_operations_labelled_as_chainer():
    """The nodes of an operation with a constant show it as Chainer 7.8.1
    does: in parentheses when negative only."""
    x = Variable(numpy.ones(3, numpy.float32))
    cases = [(x + 0.5, basic_math.AddConstant, '_ + 0.5'),
             (x - 0.5, basic_math.AddConstant, '_ + (-0.5)'),
             (x + 1, basic_math.AddConstant, '_ + 1'),
             (x + 0, basic_math.AddConstant, '_ + 0'),
             (x * 0.5, basic_math.MulConstant, '_ * 0.5'),
             (x * (-0.5), basic_math.MulConstant, '_ * (-0.5)'),
             (x ** 0.5, basic_math.PowVarConst, '_ ** 0.5'),
             (0.5 - x, basic_math.SubFromConstant, '0.5 - _')]
    for y, node_class, label in cases:
        assert type(y.creator) is node_class
        assert y.creator.label == label


@pytest.mark.parametrize('name, node_class', [
    ('add', 'Add'), ('sub', 'Sub'), ('mul', 'Mul'), ('truediv', 'Div'),
    ('pow', 'PowVarVar')])
def test_reflected_operator_of_two_variables(name, node_class):
    """``b.__rsub__(a)`` (called directly; Python calls it for Variables
    only where a's own operator gave up) is ``a - b``, with both
    gradients."""
    a = Variable(numpy.array([1.5, 2.0], numpy.float64))
    b = Variable(numpy.array([0.5, 3.0], numpy.float64))
    y = getattr(b, f'__r{name}__')(a)
    assert type(y.creator) is getattr(basic_math, node_class)
    expected = getattr(a, f'__{name}__')(b)
    numpy.testing.assert_array_equal(y.array, expected.array)
    y.grad = numpy.ones(2)
    y.backward()
    ga, gb = a.grad, b.grad
    a.cleargrad()
    b.cleargrad()
    expected.grad = numpy.ones(2)
    expected.backward()
    numpy.testing.assert_array_equal(ga, a.grad)
    numpy.testing.assert_array_equal(gb, b.grad)


@pytest.mark.parametrize('operate', [
    lambda x: 2.0 / x, lambda x: 2.0 ** x,
    # The node applied itself, as Chainer's code may.
    lambda x: basic_math.DivFromConstant(2.0).apply((x,)),
    lambda x: x / x, lambda x: x ** x])
@pytest.mark.parametrize('dtype', [numpy.complex64, numpy.bool_,
                                   numpy.int32, numpy.uint8])
def test_float_operations_refuse_other_kinds(operate, dtype):
    """Division and power, of a constant or of two Variables, take floats
    only, as in Chainer 7.8.1 (InvalidType for complex, bool, int and
    unsigned x, kinds on either side of 'f')."""
    with pytest.raises(type_check.InvalidType):
        operate(Variable(numpy.ones(3, dtype)))
