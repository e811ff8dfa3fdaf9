"""Behaviour of the activation functions beyond the conformance records:
options, argument errors, train/test modes, stability, special cases."""
import numpy
import pytest

from kusari.array import configuration
from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd.functions.activation import _gated_cell
from kusari.autograd.utils import type_check


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-2, 2, shape).astype(dtype)


@pytest.mark.parametrize('func', [
    F.relu, F.relu6, F.sigmoid, F.tanh, F.elu, F.selu, F.softplus,
    F.hard_sigmoid, F.leaky_relu, F.clipped_relu,
    lambda x: F.rrelu(x, r=numpy.full((), 0.2, x.dtype))])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_elementwise_zero_dim_keeps_dtype_and_backprops(func, dtype):
    x = Variable(numpy.asarray(-0.5, dtype))
    y = func(x)
    assert isinstance(y.array, numpy.ndarray) and y.dtype == dtype
    y.backward()
    assert isinstance(x.grad, numpy.ndarray) and x.grad.dtype == dtype


@pytest.mark.parametrize('func', [F.softmax, F.log_softmax])
def test_softmax_stable_at_large_inputs(func):
    x = numpy.array([[1e4, 0, -1e4], [-1e4, -1e4, -1e4]], numpy.float32)
    with numpy.errstate(over='raise', invalid='raise', divide='raise'):
        y = func(x).array
    expected = {F.softmax: [[1, 0, 0], [1 / 3] * 3],
                F.log_softmax: [[0, -1e4, -2e4], [-numpy.log(3)] * 3]}
    numpy.testing.assert_allclose(y, expected[func], rtol=1e-6)


def test_softplus_stable_and_beta():
    x = numpy.array([-1e4, 0, 1e4], numpy.float32)
    with numpy.errstate(over='raise', invalid='raise', divide='raise'):
        y = F.softplus(x).array
    numpy.testing.assert_allclose(y, [0, numpy.log(2), 1e4])
    numpy.testing.assert_allclose(F.softplus(numpy.array([1.0]), 2.0).array,
                                  numpy.log1p(numpy.exp(2.0)) / 2)
    with pytest.raises(ValueError, match='softplus: beta'):
        F.softplus(x, beta=0)


@pytest.mark.parametrize('func', [F.softmax, F.log_softmax, F.crelu])
def test_axis_argument(func):
    x = _x(2, 3, 4)
    numpy.testing.assert_allclose(func(x, axis=-1).array,
                                  func(x, axis=2).array)
    with pytest.raises(TypeError, match=f'{func.__name__}: axis'):
        func(x, axis=1.0)
    for axis in (3, 4, -4):
        with pytest.raises(type_check.InvalidType):
            func(x, axis=axis)
    for axis in (0, -1):  # a 0-d x has no axis
        with pytest.raises(type_check.InvalidType):
            func(numpy.array(1.0, numpy.float32), axis=axis)


def test_softmax_sums_to_one_along_axis():
    y = F.softmax(_x(2, 3, 4), axis=1).array
    numpy.testing.assert_allclose(y.sum(axis=1), 1, rtol=1e-6)


def test_crelu_doubles_the_axis():
    x = numpy.array([[-1.0, 2.0]], numpy.float32)
    numpy.testing.assert_array_equal(F.crelu(x).array, [[0, 2, 1, 0]])
    assert F.crelu(_x(2, 3, 4), axis=0).shape == (4, 3, 4)


def test_clipped_relu_bound_and_relu6():
    x = numpy.array([-1, 0.5, 3, 30], numpy.float32)
    numpy.testing.assert_array_equal(F.clipped_relu(x).array,
                                     [0, 0.5, 3, 20])
    numpy.testing.assert_array_equal(F.clipped_relu(x, 1).array,
                                     [0, 0.5, 1, 1])
    numpy.testing.assert_array_equal(F.relu6(x).array, [0, 0.5, 3, 6])
    with pytest.raises(TypeError, match='clipped_relu: z'):
        F.clipped_relu(x, '1')
    with pytest.raises(TypeError, match='clipped_relu: z'):
        F.clipped_relu(x, True)
    for z in (0.0, -1.0):
        with pytest.raises(ValueError, match='clipped_relu: z'):
            F.clipped_relu(x, z)


def test_leaky_relu_default_slope_and_gradient_at_zero():
    x = Variable(numpy.array([-1, 0, 2], numpy.float32))
    y = F.leaky_relu(x)
    numpy.testing.assert_allclose(y.array, [-0.2, 0, 2])
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(x.grad, [0.2, 0.2, 1])


def test_elu_and_selu_defaults():
    x = numpy.array([-1.0, 1.0])
    numpy.testing.assert_allclose(F.elu(x).array, [numpy.expm1(-1), 1])
    numpy.testing.assert_allclose(
        F.selu(x).array,
        [1.0507009873554805 * 1.6732632423543772 * numpy.expm1(-1),
         1.0507009873554805])


def test_hard_sigmoid_values():
    x = numpy.array([-3, -1, 0, 1, 3], numpy.float32)
    numpy.testing.assert_allclose(F.hard_sigmoid(x).array,
                                  [0, 0.3, 0.5, 0.7, 1])


class TestRReLU:

    def test_train_draws_slopes_within_bounds(self):
        x = -numpy.ones((100,), numpy.float32)
        y, r = F.rrelu(x, l=0.1, u=0.3, return_r=True)
        assert r.shape == x.shape and r.dtype == x.dtype
        assert ((r >= 0.1) & (r < 0.3)).all() and r.std() > 0
        numpy.testing.assert_array_equal(y.array, -r)

    def test_reuses_given_slopes_in_train(self):
        x = _x(3, 4)
        _, r = F.rrelu(x, return_r=True)
        y, r_again = F.rrelu(x, r=r, return_r=True)
        assert r_again is r
        numpy.testing.assert_array_equal(y.array, numpy.where(x >= 0, x,
                                                              x * r))

    def test_test_mode_uses_mean_slope(self):
        x = _x(3, 4)
        with configuration.using_config('train', False):
            y, r = F.rrelu(x, l=0.1, u=0.3, r=numpy.zeros_like(x),
                           return_r=True)
        numpy.testing.assert_allclose(r, 0.2)
        numpy.testing.assert_allclose(y.array, numpy.where(x >= 0, x,
                                                           0.2 * x))

    def test_gradient_uses_the_slopes(self):
        x = Variable(numpy.array([-1.0, 2.0], numpy.float32))
        y, r = F.rrelu(x, return_r=True)
        y.grad = numpy.ones(2, numpy.float32)
        y.backward()
        numpy.testing.assert_allclose(x.grad, [r[0], 1])

    @pytest.mark.parametrize('l, u, message', [
        (-0.1, 0.3, 'l must be in'), (1.0, 0.5, 'l must be in'),
        (1.5, 0.5, 'l must be in'), (0.0, -0.1, 'u must be in'),
        (0.1, 1.0, 'u must be in'), (0.1, 1.5, 'u must be in'),
        (0.3, 0.1, 'l must be less than u'),
        (0.3, 0.3, 'l must be less than u'),
        (0.0, 0.0, 'l must be less than u')])
    def test_bounds_validated(self, l, u, message):  # NOQA: E741
        with pytest.raises(ValueError, match=f'rrelu: {message}'):
            F.rrelu(_x(2), l=l, u=u)

    @pytest.mark.parametrize('shape, dtype', [
        ((3,), numpy.float32), ((1, 3), numpy.float32),
        ((2, 3), numpy.float64), ((2, 3), numpy.float16)])
    def test_slopes_shape_and_dtype_checked(self, shape, dtype):
        with pytest.raises(type_check.InvalidType):
            F.rrelu(Variable(_x(2, 3)), r=numpy.full(shape, 0.2, dtype))

    def test_slopes_are_keyword_only(self):
        # As in Chainer, where r and return_r come in **kwargs.
        with pytest.raises(TypeError):
            F.rrelu(_x(2), 0.1, 0.3, numpy.full(2, 0.2, numpy.float32))


def test_maxout_groups_and_errors():
    x = numpy.arange(12, dtype=numpy.float32).reshape(2, 6)
    numpy.testing.assert_array_equal(F.maxout(x, 3).array,
                                     [[2, 5], [8, 11]])
    assert F.maxout(_x(2, 3, 4), 2, axis=2).shape == (2, 3, 2)
    for pool_size in (0, -2):
        with pytest.raises(ValueError, match='maxout: pool_size must be '
                                             'positive'):
            F.maxout(x, pool_size)
    with pytest.raises(TypeError, match='maxout: pool_size'):
        F.maxout(x, 1.5)
    with pytest.raises(type_check.InvalidType):
        F.maxout(x, 4)


def test_maxout_ties_all_get_the_gradient():
    x = Variable(numpy.array([[1.0, 1.0, 0.0, 2.0]], numpy.float32))
    y = F.maxout(x, 2)
    y.grad = numpy.ones((1, 2), numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[1, 1, 0, 1]])


@pytest.mark.parametrize('func, name', [(F.prelu, 'W'), (F.swish, 'beta')])
def test_channel_parameter_broadcast_and_shape_check(func, name):
    x = _x(2, 3, 4)
    p = _x(3, seed=1)
    y = func(x, p).array
    expected = func(x, numpy.broadcast_to(p[:, None], (3, 4)).copy()).array
    numpy.testing.assert_allclose(y, expected)
    # Each check on both sides: a parameter longer and shorter than x's
    # axis, of a larger and a smaller dtype, x of no axis past the
    # parameter's, a bool, complex or int x (with a parameter alike).
    with pytest.raises(type_check.InvalidType, match=name):
        func(x, _x(4))
    with pytest.raises(type_check.InvalidType, match=name):
        func(x, _x(2))
    for dtype in (numpy.float64, numpy.float16):
        with pytest.raises(type_check.InvalidType, match=f'{name}.dtype'):
            func(x, _x(3, dtype=dtype))
    with pytest.raises(type_check.InvalidType, match=f'x.ndim >= {name}'):
        func(_x(3), p)
    for dtype in (bool, numpy.complex64, numpy.int32):
        with pytest.raises(type_check.InvalidType, match='x.dtype.kind'):
            func(x.astype(dtype), p.astype(dtype))


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def test_lstm_gate_layout_is_interleaved():
    c_prev = _x(2, 3)
    x = _x(2, 12, seed=1)
    a, i, f, o = (x[:, g::4] for g in range(4))
    c, h = F.lstm(c_prev, x)
    c_expected = numpy.tanh(a) * _sigmoid(i) + _sigmoid(f) * c_prev
    numpy.testing.assert_allclose(c.array, c_expected, rtol=1e-5)
    numpy.testing.assert_allclose(
        h.array, _sigmoid(o) * numpy.tanh(c_expected), rtol=1e-5)


def test_lstm_shrinking_batch_passes_rows_through():
    c_prev = Variable(_x(3, 2))
    x = Variable(_x(1, 8, seed=1))
    c, h = F.lstm(c_prev, x)
    assert c.shape == (3, 2) and h.shape == (1, 2)
    numpy.testing.assert_array_equal(c.array[1:], c_prev.array[1:])
    c.grad = numpy.ones((3, 2), numpy.float32)
    c.backward()
    numpy.testing.assert_array_equal(c_prev.grad[1:], 1)


@pytest.mark.parametrize('module, n_cells, batch', [
    ('lstm', 1, 3), ('lstm', 1, 2), ('slstm', 2, 3)])
def test_cell_grad_functions_give_the_cell_gradients(module, n_cells, batch):
    """LSTMGrad()(cells, xs, c, gc, gh) and SLSTMGrad(): the gradients
    backward computes, as a function that may be called again and is
    itself differentiable."""
    import importlib
    mod = importlib.import_module(
        f'kusari.autograd.functions.activation.{module}')
    grad_function = getattr(mod, module.upper() + 'Grad')()
    cells = [Variable(_x(3, 2, seed=s).astype(numpy.float64))
             for s in range(n_cells)]
    xs = [Variable(_x(batch, 8, seed=10 + s).astype(numpy.float64))
          for s in range(n_cells)]
    c, h = getattr(F, module)(*cells, *xs)
    gc = _x(*c.shape, seed=20).astype(numpy.float64)
    gh = _x(*h.shape, seed=21).astype(numpy.float64)
    (F.sum(c * gc) + F.sum(h * gh)).backward()
    for _ in range(2):
        grads = grad_function(*[v.array for v in cells + xs], c.array,
                              gc, gh)
        assert len(grads) == 2 * n_cells
        for g, v in zip(grads, cells + xs):
            numpy.testing.assert_allclose(g.array, v.grad, rtol=1e-12)
    F.sum(grads[-1]).backward()  # differentiable again


def test_split_gates_gives_unused_gates_zero_gradient():
    """_gated_cell's SplitGates (which the cells' double backward applies)
    is differentiable: a gate that reaches no output gets zeros in x's
    gradient (its third-order gradient, which no record reaches)."""
    x = Variable(_x(2, 8))
    gates = _gated_cell.GateLayout(4, True).split_variable(x)
    F.sum(gates[1] * 2).backward()
    expected = numpy.zeros((2, 8), numpy.float32)
    expected[:, 1::4] = 2
    numpy.testing.assert_array_equal(x.grad, expected)


def test_lstm_errors_name_the_arguments():
    with pytest.raises(type_check.InvalidType, match='x.shape'):
        F.lstm(_x(2, 3), _x(2, 8))
    with pytest.raises(type_check.InvalidType, match='x.shape'):
        F.lstm(_x(2, 2), _x(3, 8))
    with pytest.raises(type_check.InvalidType, match='c_prev2'):
        F.slstm(_x(2, 2), _x(2, 3), _x(2, 8), _x(2, 8))


F32, F64 = numpy.float32, numpy.float64


@pytest.mark.parametrize('c_shape, x_shape, c_dtype, x_dtype', [
    # Cells and gates not float, or of two dtypes either way.
    ((2, 2), (2, 8), numpy.int32, numpy.int32),
    ((2, 2), (2, 8), numpy.bool_, numpy.bool_),
    ((2, 2), (2, 8), F64, F32), ((2, 2), (2, 8), F32, F64),
    # Cells of one axis; x of more or fewer axes, more gate channels or
    # other trailing sides than the cells.
    ((2,), (8,), F32, F32), ((2, 2), (2, 8, 1), F32, F32),
    ((2, 2, 1), (2, 8), F32, F32), ((2, 2), (2, 12), F32, F32),
    ((2, 2, 3), (2, 8, 2), F32, F32), ((2, 2, 2), (2, 8, 3), F32, F32)])
def test_lstm_shapes_and_dtypes_checked(c_shape, x_shape, c_dtype, x_dtype):
    with pytest.raises(type_check.InvalidType):
        F.lstm(_x(*c_shape, dtype=c_dtype), _x(*x_shape, dtype=x_dtype))


@pytest.mark.parametrize('shapes', [
    # c_prev2 of another shape than c_prev1, either way.
    ((2, 3), (2, 2), (2, 12), (2, 8)), ((2, 2), (2, 3), (2, 8), (2, 12)),
    # x1 or x2 with fewer or more rows than the cells.
    ((2, 3), (2, 3), (1, 12), (2, 12)), ((2, 3), (2, 3), (3, 12), (2, 12)),
    ((2, 3), (2, 3), (2, 12), (1, 12)), ((2, 3), (2, 3), (2, 12), (3, 12))])
def test_slstm_shapes_checked(shapes):
    with pytest.raises(type_check.InvalidType):
        F.slstm(*[_x(*shape) for shape in shapes])


@pytest.mark.parametrize('shapes, dtypes', [
    # The second cell of other units or dtype than the first and x.
    (((2, 3), (2, 2), (2, 15)), 'fff'), (((2, 3), (2, 3), (2, 15)), 'fdf'),
    # x of fewer or more rows than the cells.
    (((2, 3), (1, 12)), 'ff'), (((2, 3), (3, 12)), 'ff')])
def test_tree_lstm_shapes_checked(shapes, dtypes):
    with pytest.raises(type_check.InvalidType):
        F.tree_lstm(*[_x(*shape, dtype=dtype)
                      for shape, dtype in zip(shapes, dtypes)])


def test_tree_lstm_gate_blocks_and_arity():
    c1, c2 = _x(2, 3), _x(2, 3, seed=1)
    x = _x(2, 15, seed=2)
    a, i, o, f1, f2 = (x[:, 3 * g:3 * g + 3] for g in range(5))
    c, h = F.tree_lstm(c1, c2, x)
    c_expected = (numpy.tanh(a) * _sigmoid(i) + _sigmoid(f1) * c1 +
                  _sigmoid(f2) * c2)
    numpy.testing.assert_allclose(c.array, c_expected, rtol=1e-5)
    numpy.testing.assert_allclose(
        h.array, _sigmoid(o) * numpy.tanh(c_expected), rtol=1e-5)
    with pytest.raises(TypeError, match='tree_lstm'):
        F.tree_lstm(x)
