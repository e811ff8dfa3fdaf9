import copy
import pickle
import warnings

import numpy
import pytest
from hypothesis import given, settings, strategies as st

from kusari.array import initializers
from kusari.autograd import Parameter
from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd.utils import type_check


def f32(values):
    return numpy.array(values, dtype=numpy.float32)


# -- seed 001, "Variables and Derivatives" ------------------------------


def test_tutorial_first_derivative():
    x = Variable(f32([5]))
    y = x ** 2 - 2 * x + 1
    numpy.testing.assert_array_equal(y.array, f32([16.]))
    assert y.array.dtype == numpy.float32 and y.data is y.array
    y.backward()
    assert x.grad.dtype == numpy.float32
    numpy.testing.assert_array_equal(x.grad, f32([8.]))


def test_tutorial_retain_grad():
    x = Variable(f32([5]))
    z = 2 * x
    y = x ** 2 - z + 1
    y.backward(retain_grad=True)
    numpy.testing.assert_array_equal(z.grad, f32([-1.]))
    z2 = 2 * x
    y2 = x ** 2 - z2 + 1
    y2.backward()
    assert z2.grad is None


def test_tutorial_multi_element_needs_initial_grad():
    x = Variable(f32([[1, 2, 3], [4, 5, 6]]))
    y = x ** 2 - 2 * x + 1
    with pytest.raises(ValueError, match='grad'):
        y.backward()
    y.grad = numpy.ones((2, 3), dtype=numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, f32([[0, 2, 4], [6, 8, 10]]))


# -- seed 001, "Higher-Order Derivatives" -------------------------------


def test_tutorial_second_derivative():
    x = Variable(f32([[0, 2, 3], [4, 5, 6]]))
    y = x ** 3
    y.grad = numpy.ones((2, 3), dtype=numpy.float32)
    y.backward(enable_double_backprop=True)
    assert isinstance(x.grad_var, Variable)
    numpy.testing.assert_array_equal(
        x.grad_var.array, f32([[0, 12, 27], [48, 75, 108]]))
    assert x.grad_var.array is x.grad
    assert (x.grad == (3 * x ** 2).array).all()
    gx = x.grad_var
    x.cleargrad()
    gx.grad = numpy.ones((2, 3), dtype=numpy.float32)
    gx.backward()
    numpy.testing.assert_array_equal(x.grad,
                                     f32([[0, 12, 18], [24, 30, 36]]))
    assert (x.grad == (6 * x).array).all()


def test_grad_var_without_double_backprop_has_no_graph():
    x = Variable(f32([2]))
    (x ** 3).backward()
    assert x.grad_var.creator is None


# -- gradients ----------------------------------------------------------


def test_gradients_accumulate_into_leaves():
    x = Variable(f32([1, 2]))
    for _ in range(2):
        F.sum(x * 3).backward()
    numpy.testing.assert_array_equal(x.grad, f32([6, 6]))


def test_a_leaf_used_twice_sums_its_gradients():
    x = Variable(f32([3]))
    (x * x + x).backward()
    numpy.testing.assert_array_equal(x.grad, f32([7]))


def test_gradient_sums_in_place_stay_private():
    # m's two contributions are summed, and that sum passed unchanged by
    # p + q to both p and q; p's later contribution (through the longer
    # chain, reached after p + q) must not reach q's gradient through it.
    p, q = Variable(f32([1., 2.])), Variable(f32([3., 4.]))
    m = p + q
    loss = F.sum(m * 1 + m * 2) + F.sum(p * 5 * 1 * 1)
    loss.backward()
    numpy.testing.assert_array_equal(p.grad, f32([8., 8.]))
    numpy.testing.assert_array_equal(q.grad, f32([3., 3.]))


def test_cleargrad_zerograd_addgrad():
    x = Variable(f32([1, 2]))
    x.zerograd()
    numpy.testing.assert_array_equal(x.grad, f32([0, 0]))
    F.sum(x * 2).backward()
    numpy.testing.assert_array_equal(x.grad, f32([2, 2]))
    grad = x.grad
    x.zerograd()
    assert x.grad is grad
    numpy.testing.assert_array_equal(x.grad, f32([0, 0]))
    x.cleargrad()
    assert x.grad is None and x.grad_var is None
    other = Variable(f32([0, 0]), grad=f32([1, 5]))
    x.addgrad(other)
    numpy.testing.assert_array_equal(x.grad, f32([1, 5]))
    assert x.grad is not other.grad
    x.addgrad(other)
    numpy.testing.assert_array_equal(x.grad, f32([2, 10]))
    numpy.testing.assert_array_equal(other.grad, f32([1, 5]))
    x.addgrad(Variable(f32([0, 0])))
    numpy.testing.assert_array_equal(x.grad, f32([2, 10]))
    with pytest.raises(TypeError, match='addgrad'):
        x.addgrad(f32([1, 1]))


def test_addgrad_adds_arrays_into_a_new_gradient():
    x = Variable(f32([1, 2]), grad=f32([1, 1]))
    before = x.grad
    x.addgrad(Variable(f32([0, 0]), grad=f32([2, 3])))
    numpy.testing.assert_array_equal(x.grad, f32([3, 4]))
    numpy.testing.assert_array_equal(before, f32([1, 1]))
    # A sum of gradients, not a step of the graph.
    assert x.grad_var.creator is None
    scalar = Variable(f32(1), grad=f32(2))
    scalar.addgrad(Variable(f32(0), grad=f32(3)))
    assert isinstance(scalar.grad, numpy.ndarray) and scalar.grad == 5


def test_requires_grad_false_gets_no_gradient():
    x = Variable(f32([1, 2]))
    c = Variable(f32([3, 4]), requires_grad=False)
    F.sum(x * c).backward()
    assert c.grad is None
    numpy.testing.assert_array_equal(x.grad, f32([3, 4]))
    y = c * 2
    assert y.creator is None and not y.requires_grad


def test_grad_setter_checks_shape_and_dtype():
    x = Variable(f32([1, 2]))
    with pytest.raises(ValueError, match='shape'):
        x.grad = f32([1, 2, 3])
    with pytest.raises(TypeError, match='dtype'):  # as in Chainer
        x.grad = numpy.array([1, 2], dtype=numpy.float64)
    y = x * 2
    with pytest.raises(ValueError):
        y.grad = f32([[1, 2]])
    assert y.grad is None


def test_backward_errors():
    x = Variable(f32([1, 2]))
    with pytest.raises(ValueError, match=r'\(2,\)'):
        (x * 2).backward()


# -- graph editing ------------------------------------------------------


def test_unchain_makes_a_leaf():
    x = Variable(f32([1]))
    h = x * 2
    y = h * 3
    h.unchain()
    assert h.creator is None and y.creator is not None
    y.backward()
    assert x.grad is None
    numpy.testing.assert_array_equal(h.grad, f32([3]))


def test_unchain_backward_cuts_everything_behind():
    x = Variable(f32([1]))
    h = x * 2
    y = h * 3
    y.unchain_backward()
    assert y.creator is None and h.creator is None


def test_unchain_backward_makes_the_other_outputs_of_a_function_leaves():
    # As in Chainer: a backward from a sibling output stops there.
    x = Variable(f32([1, 2, 3, 4]))
    a, b = F.split_axis(x * 2, 2, axis=0)
    a.unchain_backward()
    assert b.creator is None
    F.sum(b).backward()
    assert x.grad is None


# -- Parameter ----------------------------------------------------------


def test_parameter_remembers_a_host_device_of_the_users_own():
    # As in Chainer: a Device class over NumPy arrays (not the CpuDevice)
    # is what the parameter reports after being sent to it.
    from kusari.array import backend

    class HostDevice(backend.Device):
        xp = numpy
        supported_array_types = (numpy.ndarray,)

        def __eq__(self, other):
            return isinstance(other, HostDevice)

        __hash__ = backend.Device.__hash__

        def send_array(self, array):
            return array.copy()

    p = Parameter(f32([1, 2]))
    assert p.device == backend.CpuDevice()
    p.to_device(HostDevice())
    assert isinstance(p.device, HostDevice)
    lazy = Parameter()
    lazy.to_device(HostDevice())
    lazy.initialize((2,))
    assert isinstance(lazy.device, HostDevice)
    p.to_device(backend.CpuDevice())
    assert p.device == backend.CpuDevice()


def test_parameter_lazy_initialization():
    p = Parameter(initializers.Constant(2.))
    assert not p.is_initialized and p.array is None
    assert p.dtype == numpy.float32
    p.zerograd()
    p.initialize((2, 3))
    assert p.is_initialized and p.shape == (2, 3)
    numpy.testing.assert_array_equal(p.array, numpy.full((2, 3), 2.))
    numpy.testing.assert_array_equal(p.grad, numpy.zeros((2, 3)))
    with pytest.raises(ValueError, match='uninitialized'):
        F.exp(Parameter())
    q = Parameter(f32([1, 2]))
    numpy.testing.assert_array_equal(q.array, f32([1, 2]))
    r = Parameter(0, (3,))
    numpy.testing.assert_array_equal(r.array, numpy.zeros(3))


# -- text and pickling --------------------------------------------------


def test_repr_and_str():
    x = Variable(f32([1, 2]))
    assert repr(x) == 'variable([1., 2.])'
    assert str(x) == 'variable([1. 2.])'
    x.name = 'x'
    assert repr(x) == 'variable x([1., 2.])'
    assert str(x) == 'variable x([1. 2.])'
    assert repr(Variable(f32([[0, 2], [4, 5]]))) == \
        'variable([[0., 2.],\n          [4., 5.]])'
    assert repr(Variable()) == 'variable(None)'


def test_pickling_keeps_array_grad_name_and_requires_grad():
    x = Variable(f32([1, 2]), name='x', grad=f32([3, 4]),
                 requires_grad=False)
    y = pickle.loads(pickle.dumps(x))
    numpy.testing.assert_array_equal(y.array, x.array)
    numpy.testing.assert_array_equal(y.grad, x.grad)
    assert y.name == 'x' and not y.requires_grad
    h = pickle.loads(pickle.dumps(Variable(f32([1])) * 2))
    assert h.creator is None
    p = pickle.loads(pickle.dumps(Parameter(f32([1, 2]), name='p')))
    assert isinstance(p, Parameter) and p.name == 'p'


def test_copy_shares_the_array():
    x = Variable(f32([1, 2]), name='x')
    y = copy.copy(x)
    assert y.array is x.array and y.name == 'x'


# -- operators ----------------------------------------------------------

BINARY = [lambda a, b: a + b, lambda a, b: a - b, lambda a, b: a * b,
          lambda a, b: a / b, lambda a, b: a ** b]


@pytest.mark.parametrize('op', BINARY)
def test_operators_with_scalars_and_arrays_on_both_sides(op):
    a = f32([1.5, 2.5])
    b = f32([0.5, 3.0])
    expected = op(a, b)
    for lhs, rhs in [(Variable(a), b), (a, Variable(b)),
                     (Variable(a), Variable(b))]:
        y = op(lhs, rhs)
        assert isinstance(y, Variable)
        numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)
        assert y.dtype == numpy.float32
    for scalar in (2, 2.0, numpy.float64(2)):
        numpy.testing.assert_allclose(op(Variable(a), scalar).array,
                                      op(a, numpy.float32(2)), rtol=1e-6)
        numpy.testing.assert_allclose(op(scalar, Variable(a)).array,
                                      op(numpy.float32(2), a), rtol=1e-6)
        assert op(scalar, Variable(a)).dtype == numpy.float32


@pytest.mark.parametrize('op', BINARY)
def test_operators_differentiate_both_operands(op):
    a = Variable(f32([1.5, 2.5]))
    b = Variable(f32([0.5, 3.0]))
    F.sum(op(a, b)).backward()
    eps = 1e-3
    for v in (a, b):
        for i in range(2):
            hi = [a.array.astype(numpy.float64), b.array.astype(
                numpy.float64)]
            lo = [h.copy() for h in hi]
            k = 0 if v is a else 1
            hi[k][i] += eps
            lo[k][i] -= eps
            numeric = (op(*hi).sum() - op(*lo).sum()) / (2 * eps)
            assert v.grad[i] == pytest.approx(numeric, rel=1e-3)


def test_unary_operators_and_matmul():
    x = Variable(f32([-1, 2]))
    numpy.testing.assert_array_equal((-x).array, f32([1, -2]))
    numpy.testing.assert_array_equal(abs(x).array, f32([1, 2]))
    assert (+x) is x
    m = Variable(f32([[1, 2], [3, 4]]))
    numpy.testing.assert_array_equal((m @ x).array, f32([3, 5]))
    numpy.testing.assert_array_equal((x.array @ m).array, f32([5, 6]))


def test_floor_division_on_both_sides_has_no_gradient():
    a = f32([1.5, -2.5, 7.0])
    b = f32([0.5, 2, 3])
    for y, expected in [(Variable(a) // 2, a // 2),
                        (5 // Variable(a), 5 // a),
                        (a // Variable(b), a // b),
                        (Variable(a) // Variable(b), a // b)]:
        assert isinstance(y, Variable)
        assert y.dtype == numpy.float32
        assert y.creator is None
        numpy.testing.assert_array_equal(y.array, expected)


def test_mean_method_is_the_weighted_average():
    x = Variable(f32([[1, 2], [3, 5]]))
    numpy.testing.assert_allclose(x.mean().array, 2.75)
    # keepdims is False unless given.
    assert x.mean().shape == ()
    numpy.testing.assert_allclose(x.mean(axis=1).array, f32([1.5, 4]))
    y = x.mean(axis=1, weights=f32([1, 3]), keepdims=True)
    numpy.testing.assert_allclose(y.array, f32([[1.75], [4.5]]))
    F.sum(y).backward()
    numpy.testing.assert_allclose(x.grad, f32([[0.25, 0.75]] * 2))


def test_reshape_method_takes_sides_or_one_sequence():
    a = numpy.arange(6, dtype=numpy.float32).reshape(1, 2, 3)
    x = Variable(a)
    for y in (x.reshape(3, 2), x.reshape((3, 2)), x.reshape([3, 2])):
        assert y.shape == (3, 2)
        numpy.testing.assert_array_equal(y.array, a.reshape(3, 2))
    assert x.reshape(6).shape == (6,)
    # No sides at all: the 0-d shape of a one-element Variable.
    assert Variable(f32([5])).reshape().shape == ()
    # A sequence followed by more sides is no shape (as in Chainer).
    with pytest.raises(TypeError):
        x.reshape((3, 2), 1)


def test_transpose_method_takes_axes_or_one_sequence_or_none():
    a = numpy.arange(6, dtype=numpy.float32).reshape(1, 2, 3)
    x = Variable(a)
    for y in (x.transpose(), x.transpose(None), x.T):
        numpy.testing.assert_array_equal(y.array, a.transpose())
    for y in (x.transpose(1, 0, 2), x.transpose((1, 0, 2)),
              x.transpose([1, 0, 2])):
        numpy.testing.assert_array_equal(y.array, a.transpose(1, 0, 2))
    # A sequence followed by more axes is no permutation (as in Chainer).
    with pytest.raises(TypeError):
        x.transpose((1, 0, 2), 1)


def test_subtracting_a_constant_adds_its_negative_labelled_as_chainer():
    x = Variable(f32([1, 2]))
    y = x - 2
    numpy.testing.assert_array_equal(y.array, f32([-1, 0]))
    # Chainer's AddConstant(-2), as the caller wrote it.
    assert y.creator.label == '_ + (-2)'
    assert (x - (-2.5)).creator.label == '_ + 2.5'


def test_broadcasting_sums_gradients_back():
    x = Variable(numpy.ones((2, 3), dtype=numpy.float32))
    b = Variable(f32([1, 2, 3]))
    y = x * b
    assert y.shape == (2, 3)
    F.sum(y).backward()
    numpy.testing.assert_array_equal(b.grad, f32([2, 2, 2]))
    numpy.testing.assert_array_equal(x.grad, numpy.tile(b.array, (2, 1)))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([numpy.float16, numpy.float32, numpy.float64]),
       st.sampled_from([2, 2.5, -1]))
def test_dtype_is_preserved_with_scalars(dtype, scalar):
    x = Variable(numpy.ones(3, dtype=dtype))
    for y in (x * scalar, scalar * x, x + scalar, x - scalar,
              scalar - x, x / scalar, scalar / x, x ** 2, 2 ** x):
        assert y.dtype == dtype
    F.sum(x * scalar).backward()
    assert x.grad.dtype == dtype


def test_comparisons_return_boolean_arrays():
    x = Variable(f32([1, 2, 3]))
    y = Variable(f32([3, 2, 1]))
    numpy.testing.assert_array_equal(x < y, [True, False, False])
    numpy.testing.assert_array_equal(x <= 2, [True, True, False])
    numpy.testing.assert_array_equal(x == y, [False, True, False])
    numpy.testing.assert_array_equal(x != y.array, [True, False, True])
    numpy.testing.assert_array_equal(x > 1, [False, True, True])
    numpy.testing.assert_array_equal(x >= y, [False, True, True])
    assert isinstance(x < y, numpy.ndarray)
    with pytest.raises(TypeError, match='ambiguous'):
        bool(x)


# -- errors -------------------------------------------------------------


@pytest.mark.parametrize('data', [1.0, 3, [1.0, 2.0], (1, 2)])
def test_python_scalars_and_lists_are_not_arrays(data):
    with pytest.raises(TypeError, match='numpy.asarray'):
        Variable(data)


def test_shape_mismatch_names_the_function():
    with pytest.raises(type_check.InvalidType) as info:
        Variable(f32([1, 2])) + Variable(f32([1, 2, 3]))
    assert '_ + _' in str(info.value)


def test_int_input_to_exp_is_invalid():
    with pytest.raises(type_check.InvalidType, match='exp'):
        F.exp(Variable(numpy.array([1, 2], dtype=numpy.int32)))


def test_unsupported_operand_is_a_type_error():
    with pytest.raises(TypeError, match='str'):
        Variable(f32([1])) * 'a'


# -- Chainer 7.8.1's observable behaviour (conformance/differential) ----


def test_backward_drops_the_outputs_own_gradient():
    x = Variable(f32([1, 2]))
    y = F.sum(x * x)
    y.backward()
    assert y.grad is None
    numpy.testing.assert_array_equal(x.grad, f32([2, 4]))
    y = F.sum(x * x)
    y.backward(retain_grad=True)
    numpy.testing.assert_array_equal(y.grad, f32(1))
    z = x * 3
    z.grad = f32([1, 1])
    z.backward()
    assert z.grad is None
    leaf = Variable(f32(3))
    leaf.backward()
    numpy.testing.assert_array_equal(leaf.grad, f32(1))


def test_summary_and_debug_print_as_chainer():
    named = Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3),
                     name='d')
    assert named.summary() == '<variable d>'
    unnamed = Variable(f32([1]))
    assert unnamed.summary() == f'<variable at {id(unnamed):#x}>'
    named.grad = numpy.ones((2, 3), numpy.float32)
    assert named.debug_print().splitlines() == [
        '<variable d>', '- device: CPU',
        "- backend: <class 'numpy.ndarray'>", '- shape: (2, 3)',
        '- dtype: float32',
        '- statistics: mean=2.50000000, std=1.70782518',
        '- grad: mean=1.00000000, std=0.00000000']
    named.grad[...] = 0
    assert named.debug_print().endswith('\n- grad: 0')
    assert Variable(name='e').debug_print().splitlines()[1:] == [
        f'- {what}: None' for what in (
            'device', 'backend', 'shape', 'dtype', 'statistics', 'grad')]


def test_parameter_without_initializer_fills_nan():
    param = Parameter()
    param.initialize((2, 3))
    assert param.dtype == numpy.float32
    assert numpy.isnan(param.array).all()
    assert numpy.isnan(Parameter(shape=4).array).all()


def test_backward_from_a_one_element_array_warns_as_chainer():
    x = Variable(f32([1, 2]))
    with pytest.warns(DeprecationWarning, match=r'shape \(1,\)'):
        F.sum(x * x, keepdims=True).backward()
    numpy.testing.assert_array_equal(x.grad, f32([2, 4]))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        F.sum(x).backward()
        y = F.sum(x, keepdims=True)
        y.grad = f32([1])
        y.backward()


# -- Chainer's Variable and Parameter conventions ------------------------


def test_variable_node_made_at_once_and_its_old_grad_argument():
    from kusari.autograd.variable import VariableNode
    x = Variable(f32([1, 2]))
    assert isinstance(x.node, VariableNode) and x.node.shape == (2,)
    assert x._has_chainerx_array is False
    with pytest.raises(ValueError, match='grad'):
        VariableNode(Variable(), '', grad=None)


def test_empty_variables_print_as_empty_lists():
    assert str(Variable(numpy.zeros((0, 0), 'f'))) == 'variable([])'
    assert str(Variable(numpy.zeros((2, 0), 'f'), name='x')) == \
        'variable x([])'
    assert repr(Variable(numpy.zeros((2, 0), 'f'), name='x')) == \
        'variable x([], shape=(2, 0))'
    assert repr(Variable(numpy.zeros((0,), 'f'))) == 'variable([])'


def test_uninitialized_parameter_gradient():
    p = Parameter()
    with pytest.raises(RuntimeError, match='uninitialized'):
        p.grad
    p.initialize((3, 2))
    assert p.grad.shape == (3, 2) and numpy.isnan(p.grad).all()
    q = Parameter()
    q.cleargrad()
    assert q.grad is None
    q.initialize((3, 2))
    assert q.grad is None
    s = Parameter()
    s.grad = None  # (set: readable, and NaN once initialized)
    assert s.grad is None
    s.initialize((2,))
    assert numpy.isnan(s.grad).all()
    r = Parameter(initializers.Constant(0, dtype=numpy.float16))
    with pytest.warns(DeprecationWarning):
        r.zerograd()
    assert r.grad is None
    r.initialize((2,))
    assert r.grad.dtype == numpy.float16 and (r.grad == 0).all()
    assert Parameter(f32([1])).grad is None
    assert numpy.isnan(Parameter(shape=(2,)).grad).all()


def test_parameter_dtype_without_initializer_dtype():
    class Fill:
        def __call__(self, array):
            array.fill(1)

    with pytest.raises(RuntimeError, match='dtype'):
        Parameter(Fill()).dtype


def test_copydata_and_addgrad_initialize_parameters():
    src = Parameter(f32([[1, 2], [3, 4]]))
    dst = Parameter()
    dst.copydata(src)
    numpy.testing.assert_array_equal(dst.array, src.array)
    lazy = Parameter(initializers.Constant(7))
    full = Parameter(f32([1, 2, 3]))
    full.copydata(lazy)
    numpy.testing.assert_array_equal(full.array, f32([7, 7, 7]))
    a, b = Parameter(), Parameter()
    a.copydata(b)
    assert a.array is None and b.array is None
    src.grad = f32([[5, 6], [7, 8]])
    target = Parameter()
    target.cleargrad()
    target.addgrad(src)
    numpy.testing.assert_array_equal(target.grad, src.grad)


def test_copies_of_an_uninitialized_parameter_share_its_array():
    # As in Chainer (Link.copy of a lazy link relies on it).
    x = Parameter()
    y = copy.copy(x)
    x.initialize((3, 2))
    assert y.array is x.array
    z = Parameter()
    w = copy.copy(z)
    w.initialize((2,))
    assert z.array is w.array


# -- post-accumulate gradient hooks ----------------------------------


def _chain(seed=0):
    """x -> W1 -> tanh -> W2 -> sum: parameters W1, W2 (leaves)."""
    rng = numpy.random.RandomState(seed)
    w1 = Parameter(rng.randn(3, 4).astype(numpy.float32), name='W1')
    w2 = Parameter(rng.randn(2, 3).astype(numpy.float32), name='W2')
    x = Variable(rng.randn(5, 4).astype(numpy.float32), requires_grad=False)
    return w1, w2, lambda: F.sum(F.linear(F.tanh(F.linear(x, w1)), w2))


def test_post_accumulate_hook_runs_once_its_gradient_is_final():
    from kusari.autograd.function_hook import FunctionHook
    w1, w2, loss = _chain()
    events = []

    class Backwards(FunctionHook):
        def backward_postprocess(self, function, in_data, out_grad):
            events.append(function.label)

    def hook(name):
        return lambda var: events.append((name, var.grad.copy()))
    handles = [w1.register_post_accumulate_grad_hook(hook('W1')),
               w2.register_post_accumulate_grad_hook(hook('W2'))]
    try:
        with Backwards():
            loss().backward()
    finally:
        for handle in handles:
            handle.remove()
    # W2's hook runs right after the backward that made its gradient,
    # before the pass goes on to tanh and the first linear.
    names = [e if isinstance(e, str) else e[0] for e in events]
    assert names == ['Sum', 'LinearFunction', 'W2', 'Tanh',
                     'LinearFunction', 'W1'], names
    numpy.testing.assert_array_equal(events[2][1], w2.grad)
    numpy.testing.assert_array_equal(events[5][1], w1.grad)


def test_post_accumulate_hook_waits_for_every_use_and_accumulates():
    w = Parameter(f32([[1., 2.], [3., 4.]]))
    x = Variable(f32([[1., -1.]]), requires_grad=False)
    seen = []
    handle = w.register_post_accumulate_grad_hook(
        lambda var: seen.append(var.grad.copy()))
    try:
        # W is used by two functions, the first far from the loss.
        y = F.linear(F.linear(x, w), w)
        F.sum(y).backward()
        once = w.grad.copy()
        F.sum(F.linear(F.linear(x, w), w)).backward()  # not cleared
    finally:
        handle.remove()
    reference = Variable(w.array.copy())
    F.sum(F.linear(F.linear(x, reference), reference)).backward()
    assert len(seen) == 2
    numpy.testing.assert_allclose(seen[0], reference.grad)
    numpy.testing.assert_allclose(seen[1], 2 * once)
    handle.remove()  # a second remove does nothing
    F.sum(F.linear(x, w)).backward()
    assert len(seen) == 2


def test_post_accumulate_hook_not_run_by_grad_and_checks_callable():
    w1, w2, loss = _chain()
    seen = []
    handle = w1.register_post_accumulate_grad_hook(seen.append)
    try:
        from kusari.autograd import grad
        grad([loss()], [w1, w2])
        assert seen == []
        loss().backward()
        assert seen == [w1]
    finally:
        handle.remove()
    with pytest.raises(TypeError, match='callable'):
        w1.register_post_accumulate_grad_hook(None)
