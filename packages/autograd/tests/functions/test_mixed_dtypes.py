"""Products of operands of different float dtypes, as Chainer takes them.

linear and the convolution family give x's dtype, matmul and tensordot
NumPy's promotion; every gradient comes back in its own input's dtype, and
once more in second-order gradients.
"""
import itertools

import numpy
import pytest

from kusari.autograd import functions as F
from kusari.autograd.functions.array.cast import Cast
from kusari.autograd.utils.sparse import CooMatrix
from kusari.autograd.variable import Variable

FLOATS = (numpy.float16, numpy.float32, numpy.float64)
PAIRS = list(itertools.product(FLOATS, FLOATS))


def _x_dtype(x_dtype, w_dtype):
    return x_dtype


def _promoted(a_dtype, b_dtype):
    return numpy.promote_types(a_dtype, b_dtype)


# A 3 x 4 sparse matrix of 5 entries (x below is its entries).
_ROW = numpy.array([0, 0, 1, 2, 2], numpy.int32)
_COL = numpy.array([1, 3, 0, 2, 3], numpy.int32)


def _sparse(data):
    return CooMatrix(data, _ROW, _COL, (3, 4))


_MASK = numpy.random.default_rng(3).random((3, 2, 4)) < .5


# name: (function of (x, W), shapes of x and W, the output dtype rule)
CASES = {
    'linear': (F.linear, ((3, 4), (2, 4)), _x_dtype),
    'linear:n_batch_axes': (lambda x, W: F.linear(x, W, n_batch_axes=2),
                            ((2, 3, 4), (5, 4)), _x_dtype),
    'matmul': (F.matmul, ((3, 4), (4, 2)), _promoted),
    'matmul:transposed': (lambda a, b: F.matmul(a, b, True, True),
                          ((2, 4, 3), (2, 5, 4)), _promoted),
    'matmul:vector': (F.matmul, ((4,), (3, 4, 2)), _promoted),
    'tensordot': (lambda a, b: F.tensordot(a, b, axes=([2, 0], [0, 2])),
                  ((2, 3, 4), (4, 5, 2)), _promoted),
    'convolution_2d': (lambda x, W: F.convolution_2d(x, W, pad=1),
                       ((2, 3, 4, 5), (4, 3, 3, 2)), _x_dtype),
    'convolution_2d:groups': (
        lambda x, W: F.convolution_2d(x, W, stride=2, groups=2),
        ((2, 4, 5, 5), (6, 2, 3, 3)), _x_dtype),
    'convolution_nd': (lambda x, W: F.convolution_nd(x, W, stride=2),
                       ((2, 3, 7), (4, 3, 3)), _x_dtype),
    'deconvolution_2d': (lambda x, W: F.deconvolution_2d(x, W, stride=2),
                         ((2, 3, 3, 2), (3, 4, 2, 3)), _x_dtype),
    'deconvolution_nd': (lambda x, W: F.deconvolution_nd(x, W, pad=1),
                         ((2, 4, 3, 2, 2), (4, 1, 3, 2, 2)), _x_dtype),
    'depthwise_convolution_2d': (F.depthwise_convolution_2d,
                                 ((2, 3, 4, 4), (2, 3, 2, 2)), _x_dtype),
    'local_convolution_2d': (F.local_convolution_2d,
                             ((2, 3, 4, 4), (2, 3, 3, 3, 2, 2)), _x_dtype),
    'simplified_dropconnect': (
        lambda x, W: F.simplified_dropconnect(x, W, mask=_MASK),
        ((3, 4), (2, 4)), _x_dtype),
    'sparse_matmul': (lambda a, b: F.sparse_matmul(_sparse(a), b),
                      ((5,), (4, 2)), _promoted),
    'sparse_matmul:dense_first': (
        lambda a, b: F.sparse_matmul(b, _sparse(a), transb=True),
        ((5,), (2, 4)), _promoted),
}


def _inputs(name, x_dtype, w_dtype):
    rng = numpy.random.default_rng(sum(map(ord, name)))
    x_shape, w_shape = CASES[name][1]
    return (rng.uniform(-1, 1, x_shape).astype(x_dtype),
            rng.uniform(-1, 1, w_shape).astype(w_dtype))


@pytest.mark.parametrize('name', sorted(CASES))
@pytest.mark.parametrize('x_dtype,w_dtype', PAIRS)
def test_dtypes_and_values(name, x_dtype, w_dtype):
    func, _, out_dtype = CASES[name]
    x_data, w_data = _inputs(name, x_dtype, w_dtype)
    x, W = Variable(x_data), Variable(w_data)
    y = func(x, W)
    assert y.dtype == out_dtype(x_dtype, w_dtype)
    # The product is that of the values as given, computed at least in
    # the wider operand's precision.
    expected = func(x_data.astype(numpy.float64),
                    w_data.astype(numpy.float64)).array
    tolerance = 5e-3 if numpy.float16 in (y.dtype,) else 1e-5
    numpy.testing.assert_allclose(y.array, expected, rtol=tolerance,
                                  atol=tolerance)
    gy = numpy.random.default_rng(2).uniform(-1, 1, y.shape)
    y.grad = gy.astype(y.dtype)
    y.backward(enable_double_backprop=True)
    assert x.grad.dtype == x_dtype
    assert W.grad.dtype == w_dtype
    # Second order: the gradients of the gradients keep each dtype too.
    gx, gW = x.grad_var, W.grad_var
    x.cleargrad()
    W.cleargrad()
    F.sum(gx * gx).backward()
    F.sum(gW * gW).backward()
    assert x.grad is None or x.grad.dtype == x_dtype
    assert W.grad.dtype == w_dtype


@pytest.mark.parametrize('name', ['linear', 'convolution_2d', 'matmul'])
def test_gradients_equal_the_wide_computation(name):
    """x float32 with W float64: the gradients are those of the float64
    computation, rounded to each input's dtype."""
    func = CASES[name][0]
    x_data, w_data = _inputs(name, numpy.float32, numpy.float64)
    grads = []
    for x_dtype in (numpy.float32, numpy.float64):
        x, W = Variable(x_data.astype(x_dtype)), Variable(w_data)
        F.sum(func(x, W)).backward()
        grads.append((x.grad, W.grad))
    (gx, gW), (gx64, gW64) = grads
    numpy.testing.assert_allclose(gx, gx64, rtol=1e-5, atol=1e-5)
    numpy.testing.assert_allclose(gW, gW64, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize('name', sorted(CASES))
def test_one_dtype_adds_no_cast(name):
    """Operands of one dtype take the plain path: no Cast node anywhere
    in the graph of the output or of the gradients."""
    func = CASES[name][0]
    x, W = (Variable(a) for a in _inputs(name, numpy.float32,
                                         numpy.float32))
    y = func(x, W)
    y.grad = numpy.ones_like(y.array)
    y.backward(enable_double_backprop=True)
    pending = [y.creator_node, x.grad_var.creator_node,
               W.grad_var.creator_node]
    seen = set()
    while pending:
        node = pending.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        assert not isinstance(node, Cast), name
        pending.extend(i.creator_node for i in node.inputs)


def test_linear_bias_must_have_x_dtype():
    x = numpy.ones((2, 3), numpy.float32)
    W = numpy.ones((4, 3), numpy.float64)
    with pytest.raises(TypeError, match='b.dtype == x.dtype'):
        F.linear(x, W, numpy.ones(4, numpy.float64))
    assert F.linear(x, W, numpy.ones(4, numpy.float32)).dtype == \
        numpy.float32


@pytest.mark.parametrize('op', [
    lambda a, b: a + b, lambda a, b: a - b, lambda a, b: a * b,
    lambda a, b: a / b, lambda a, b: a ** b])
@pytest.mark.parametrize('array_dtype', [numpy.float16, numpy.float64,
                                         numpy.int32])
def test_operators_cast_an_array_to_the_variable_dtype(op, array_dtype):
    """As Chainer: ``v + array`` (and reflected, and the other operators)
    computes with the array cast to v's dtype; v's gradient keeps it."""
    data = numpy.array([1.5, 2.0, 0.5], numpy.float32)
    array = numpy.array([2, 3, 1]).astype(array_dtype)
    for lhs_is_variable in (True, False):
        v = Variable(data.copy())
        y = op(v, array) if lhs_is_variable else op(array, v)
        expected = op(data, array.astype(numpy.float32)) if lhs_is_variable \
            else op(array.astype(numpy.float32), data)
        assert y.dtype == numpy.float32
        numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)
        F.sum(y).backward()
        assert v.grad.dtype == numpy.float32


def test_two_variables_of_different_dtypes_are_refused():
    """Only array operands are cast: Variables must agree, as in Chainer."""
    a = Variable(numpy.ones(2, numpy.float32))
    b = Variable(numpy.ones(2, numpy.float64))
    with pytest.raises(TypeError, match='lhs.dtype == rhs.dtype'):
        a + b


@pytest.mark.parametrize('name', sorted(CASES))
@pytest.mark.parametrize('x_dtype,w_dtype', [
    (numpy.float32, numpy.float64), (numpy.float64, numpy.float32)])
def test_gradients_of_mixed_operands_are_right(name, x_dtype, w_dtype):
    """First and second order gradients against finite differences, with
    the operands in two dtypes (the narrower one is float32)."""
    from kusari.autograd import gradient_check
    func = CASES[name][0]
    inputs = _inputs(name, x_dtype, w_dtype)
    y = func(*inputs)
    rng = numpy.random.default_rng(4)
    gy = rng.uniform(-1, 1, y.shape).astype(y.dtype)
    ggs = tuple(rng.uniform(-1, 1, a.shape).astype(a.dtype) for a in inputs)
    gradient_check.check_backward(func, inputs, gy, eps=1e-2, atol=1e-3,
                                  rtol=1e-3, dtype=numpy.float64)
    gradient_check.check_double_backward(func, inputs, gy, ggs, eps=1e-2,
                                         atol=1e-3, rtol=1e-3,
                                         dtype=numpy.float64)
