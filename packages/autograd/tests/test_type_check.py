import builtins
import contextlib
import inspect
import operator
import pickle
import threading
import timeit

import numpy
import pytest
from hypothesis import given, settings, strategies as st

from kusari.array import lazy_cupy
from kusari.autograd.utils import type_check


def symbolic_types(*arrays):
    return type_check.get_types(arrays, 'in_types', False)


def failure(condition):
    """The InvalidType that expect(condition) raises in symbolic mode."""
    with pytest.raises(type_check.InvalidType) as info:
        type_check.expect(condition)
    return info.value


def check_failure(check, in_data, input_names=None):
    with pytest.raises(type_check.InvalidType) as info:
        type_check.check_types(check, in_data, 'LinearFunction', input_names)
    return info.value


def linear_check(in_types):
    type_check.expect(in_types.size() == 2)
    type_check.argname(in_types, ('x', 'W'))
    x_type, w_type = in_types
    type_check.expect(
        x_type.dtype.kind == 'f',
        x_type.ndim >= 2,
        x_type.shape[1] == w_type.shape[1],
        x_type.dtype == numpy.float32,
    )


X = numpy.zeros((4, 3), numpy.float32)
W = numpy.zeros((5, 3), numpy.float32)


# Messages


@pytest.mark.parametrize('condition, expect, actual', [
    (lambda x, y: x.ndim == 3, 'in_types[0].ndim == 3', '2 != 3'),
    (lambda x, y: x.ndim != 2, 'in_types[0].ndim != 2', '2 == 2'),
    (lambda x, y: x.shape[0] < 4, 'in_types[0].shape[0] < 4', '4 >= 4'),
    (lambda x, y: x.shape[0] <= 3, 'in_types[0].shape[0] <= 3', '4 > 3'),
    (lambda x, y: x.shape[1] > 3, 'in_types[0].shape[1] > 3', '3 <= 3'),
    (lambda x, y: x.ndim >= 3, 'in_types[0].ndim >= 3', '2 < 3'),
    (lambda x, y: x.shape[0] == y.shape[0],
     'in_types[0].shape[0] == in_types[1].shape[0]', '4 != 2'),
    (lambda x, y: x.dtype.kind == 'i', 'in_types[0].dtype.kind == i',
     'f != i'),
    (lambda x, y: x.dtype == numpy.float64,
     "in_types[0].dtype == <class 'numpy.float64'>",
     "float32 != <class 'numpy.float64'>"),
    (lambda x, y: x.shape[0] == y.shape[0] * 4,
     'in_types[0].shape[0] == in_types[1].shape[0] * 4', '4 != 8'),
    (lambda x, y: x.shape == y.shape,
     'in_types[0].shape == in_types[1].shape', '(4, 3) != (2,)'),
    (lambda x, y: x.size == 7, 'in_types[0].size == 7', '12 != 7'),
])
def test_comparison_message(condition, expect, actual):
    x_type, y_type = symbolic_types(X, numpy.zeros(2, numpy.int32))
    error = failure(condition(x_type, y_type))
    assert (error.expect, error.actual) == (expect, actual)
    assert str(error) == f'Expect: {expect}\nActual: {actual}'


def test_is_in_builds_a_membership_condition_in_both_modes():
    x_type, = symbolic_types(X)
    error = failure(type_check.is_in(x_type.dtype.kind, 'iu'))
    assert (error.expect, error.actual) == (
        'in_types[0].dtype.kind in iu', 'f not in iu')
    type_check.expect(type_check.is_in(x_type.dtype.kind, 'fc'))
    with type_check.light_mode:
        assert type_check.is_in('f', 'iu') is False
        assert type_check.is_in('i', 'iu') is True


def test_python_in_on_an_expression_gives_an_invalid_type():
    # ``kind in 'iu'`` holds in light mode but cannot be built in symbolic
    # mode (str.__contains__ refuses the expression): the failure is still
    # an InvalidType naming the function, not that TypeError.
    def check(in_types):
        type_check.expect(in_types[0].dtype.kind in 'iu')

    error = check_failure(check, (X,))
    assert str(error).startswith(
        'Invalid operation is performed in: LinearFunction (Forward)')
    assert "requires string as left operand" in error.actual
    type_check.check_types(check, (X.astype(numpy.int32),), 'F')


def test_named_values_and_calls_show_their_names():
    x_type, = symbolic_types(X)
    in_size = type_check.make_variable(4, 'in_size')
    assert failure(x_type.shape[1] == in_size).expect == (
        'in_types[0].shape[1] == in_size')
    total = type_check.Variable(sum, 'sum')
    error = failure(total(x_type.shape) == 10)
    assert (error.expect, error.actual) == (
        'sum(in_types[0].shape) == 10', '7 != 10')
    error = failure(type_check.prod(x_type.shape) == 13)
    assert (error.expect, error.actual) == (
        'prod(in_types[0].shape) == 13', '12 != 13')


def test_check_types_message_names_function_and_arguments():
    error = check_failure(linear_check, (X.astype(numpy.int32), W))
    assert str(error) == (
        'Invalid operation is performed in: LinearFunction (Forward)\n\n'
        'Expect: x.dtype.kind == f\nActual: i != f')
    assert (error.expect, error.actual) == ('x.dtype.kind == f', 'i != f')
    error = check_failure(linear_check, (X, W[:, :2]))
    assert error.expect == 'x.shape[1] == W.shape[1]'
    assert error.actual == '3 != 2'


def test_check_types_reports_the_size_check_first():
    error = check_failure(linear_check, (X,))
    assert str(error).splitlines()[2:] == [
        'Expect: in_types.size == 2', 'Actual: 1 != 2']


def test_lazy_conditions_report_the_guard_not_an_index_error():
    # In light mode x.shape[1] raises IndexError for a 1-d x before expect
    # runs; the symbolic run must report the ndim guard instead.
    error = check_failure(linear_check, (X[0], W))
    assert (error.expect, error.actual) == ('x.ndim >= 2', '1 < 2')


def test_input_names_of_check_types():
    def check(in_types):
        type_check.expect(in_types[0].ndim == 3)

    error = check_failure(check, (X,), input_names=('x',))
    assert error.expect == 'x.ndim == 3'
    error = check_failure(check, (X, W), input_names=('x',))
    assert (error.expect, error.actual) == ('in_types.size == 1 (x)',
                                            '2 != 1')


def test_argname_renames_variables():
    in_types = symbolic_types(X, W)
    type_check.argname(in_types, ('x', 'W'))
    assert str(in_types[0].shape[1] == in_types[1].shape[1]) == (
        'x.shape[1] == W.shape[1]')


def test_argname_rejects_wrong_count():
    with pytest.raises(type_check.InvalidType) as info:
        type_check.argname(symbolic_types(X), ('x', 'W'))
    assert info.value.expect == 'in_types.size == 2 (x, W)'
    assert info.value.actual == '1 != 2'


def test_manual_invalid_type_gets_function_name():
    def check(in_types):
        shape = type_check.eval(in_types[0].shape)
        if shape[0] % 2:
            raise type_check.InvalidType('an even batch', f'{shape[0]}')

    error = check_failure(check, (W,))
    assert str(error) == (
        'Invalid operation is performed in: LinearFunction (Forward)\n\n'
        'Expect: an even batch\nActual: 5')


def test_plain_false_in_symbolic_mode_is_explained():
    x_type, = symbolic_types(X)
    with pytest.raises(type_check.InvalidType) as info:
        type_check.expect(x_type.ndim == 2, True, False)
    assert info.value.expect.startswith('condition 3 of type_check.expect')
    assert info.value.actual == 'False'


def test_non_comparison_expression_is_tested_for_truth():
    x_type, = symbolic_types(X)
    type_check.expect((x_type.ndim == 2) & (x_type.shape[0] == 4))
    error = failure((x_type.ndim == 3) | (x_type.shape[0] == 5))
    assert error.expect == (
        '(in_types[0].ndim == 3) | (in_types[0].shape[0] == 5)')
    assert error.actual == 'False'


def test_invalid_type_is_a_type_error_and_pickles():
    error = check_failure(linear_check, (X.astype(numpy.int32), W))
    assert isinstance(error, TypeError)
    clone = pickle.loads(pickle.dumps(error))
    assert type(clone) is type_check.InvalidType
    assert (str(clone), clone.expect, clone.actual) == (
        str(error), error.expect, error.actual)
    # Tracebacks and pickles name it where users import it from.
    assert b'kusari.autograd.utils.type_check' in pickle.dumps(error)
    assert type_check.InvalidType.__module__ == type_check.__name__


def test_check_that_fails_only_in_light_mode_is_reported():
    def check(in_types):
        type_check.expect(not type_check.in_light_mode())

    error = check_failure(check, (X,))
    assert 'must not depend on type_check.in_light_mode()' in str(error)


def test_errors_other_than_invalid_type_propagate():
    def check(in_types):
        raise KeyError('bug in the check')

    with pytest.raises(KeyError, match='bug in the check'):
        type_check.check_types(check, (X,), 'F')


def test_get_types_rejects_bad_input():
    with pytest.raises(TypeError, match=r'in_types\[1\] must be an array, '
                                        r'got int'):
        type_check.get_types((X, 3), 'in_types', False)
    with pytest.raises(TypeError, match='must be an array, got NoneType'):
        type_check.get_types((None,), 'in_types', False)
    with pytest.raises(TypeError, match='must be a tuple of arrays'):
        type_check.get_types(X, 'in_types', False)
    with pytest.raises(ValueError, match='1 shapes for the 2 arrays'):
        type_check.get_types((X, W), 'in_types', False, shapes=((1,),))


def test_get_types_accepts_none_and_shapes():
    with type_check.light_mode:
        absent, given = type_check.get_types(
            (None, X), 'grads', True, shapes=((9,), [2, 6]))
    assert (absent.shape, absent.dtype, absent.ndim) == ((), None, 0)
    assert (given.shape, given.dtype, given.size) == ((2, 6), X.dtype, 12)
    in_types = type_check.get_types((None, X), 'grads', True)
    assert str(in_types[1]) == 'grads[1]'
    assert type_check.eval(in_types[0]).dtype is None


# Expressions


def test_expressions_refuse_truth_and_iteration_in_symbolic_mode():
    x_type, = symbolic_types(X)
    with pytest.raises(RuntimeError, match='has no truth value'):
        bool(x_type.ndim == 2)
    with pytest.raises(TypeError, match='cannot iterate'):
        tuple(x_type.shape)
    with pytest.raises(AttributeError):
        x_type._private


def test_numpy_operands_on_the_left_build_expressions():
    x_type, = symbolic_types(X)
    condition = numpy.int64(4) == x_type.shape[0]
    assert isinstance(condition, type_check.BoolBinaryOperator)
    assert str(condition) == 'in_types[0].shape[0] == 4'
    assert type_check.eval(numpy.float32 == x_type.dtype)


def test_slices_of_type_tuples_keep_names():
    in_types = symbolic_types(X, W, X)
    rest = in_types[1:]
    assert isinstance(rest, type_check.TypeInfoTuple)
    assert str(rest.size() == 2) == 'in_types[1:].size == 2'
    assert str(rest[0]) == 'in_types[1]'
    assert str(in_types[0].shape[::2]) == 'in_types[0].shape[::2]'


def test_eval_computes_nested_values():
    x_type, w_type = symbolic_types(X, W)
    assert type_check.eval(x_type).shape == (4, 3)
    assert type_check.eval((x_type.shape[0], 3)) == (4, 3)
    assert type_check.eval(7) == 7
    assert type_check.eval(x_type.shape == (w_type.shape[1] + 1, 3))


# Light mode


def test_light_mode_gives_plain_values():
    assert not type_check.in_light_mode()
    with type_check.light_mode:
        assert type_check.in_light_mode()
        in_types = type_check.get_types((X, W), 'in_types', False)
        x_type, w_type = in_types
        assert isinstance(in_types, type_check.TypeInfoTuple)
        assert isinstance(x_type, type_check.TypeInfo)
        assert in_types.size() == 2
        assert (x_type.shape, x_type.dtype, x_type.ndim, x_type.size) == (
            (4, 3), numpy.dtype(numpy.float32), 2, 12)
        assert (x_type.dtype.kind == 'f') is True
        assert type_check.eval(x_type.shape) == (4, 3)
        assert type_check.make_variable(3, 'n') == 3
        assert type_check.prod(x_type.shape) == 12
        type_check.argname(in_types, ('x', 'W'))
        type_check.expect(x_type.shape[0] == type_check.Variable(4, 'n'))
        with pytest.raises(type_check.InvalidType):
            type_check.expect(True, x_type.ndim == 3)
    assert not type_check.in_light_mode()


def test_light_mode_nests_and_check_types_restores_it():
    with type_check.light_mode:
        with type_check.light_mode:
            pass
        assert type_check.in_light_mode()
        check_failure(linear_check, (X[0], W))
        assert type_check.in_light_mode()
    assert not type_check.in_light_mode()


def test_light_mode_is_per_thread():
    seen = []
    with type_check.light_mode:
        thread = threading.Thread(
            target=lambda: seen.append(type_check.in_light_mode()))
        thread.start()
        thread.join()
    assert seen == [False]


def test_same_types():
    assert type_check.same_types(X, W)
    assert type_check.same_types()
    assert not type_check.same_types(X, [1.0])


@pytest.mark.gpu
def test_same_types_on_gpu():
    cupy = lazy_cupy.cupy_or_none()
    if cupy is None:
        pytest.skip('CuPy or a GPU is not available')
    assert type_check.same_types(cupy.zeros(2), cupy.zeros(3))
    assert not type_check.same_types(cupy.zeros(2), X)


# Light and symbolic parity

DTYPES = [numpy.float16, numpy.float32, numpy.float64, numpy.int32,
          numpy.int8, numpy.bool_]
shapes = st.lists(st.integers(0, 3), max_size=3).map(tuple)
arrays = st.builds(numpy.zeros, shapes, st.sampled_from(DTYPES))


def elementwise_check(in_types):
    type_check.expect(in_types.size() == 2)
    x_type, y_type = in_types
    type_check.expect(
        x_type.dtype.kind == 'f',
        x_type.dtype == y_type.dtype,
        x_type.shape == y_type.shape,
    )


def matmul_check(in_types):
    type_check.argname(in_types, ('a', 'b'))
    a_type, b_type = in_types
    type_check.expect(
        a_type.dtype.kind == 'f',
        a_type.ndim == 2,
        b_type.ndim >= 1,
        a_type.shape[1] == b_type.shape[0],
        type_check.prod(b_type.shape) <= type_check.make_variable(6, 'max'),
    )


def reshape_check(in_types):
    x_type, y_type = in_types
    type_check.expect(
        x_type.size == y_type.size,
        x_type.ndim + y_type.ndim < 5,
        type_check.prod(x_type.shape[1:]) * 2 != y_type.size % 7,
    )


def passes(check, in_data, light):
    with type_check.light_mode if light else contextlib.nullcontext():
        in_types = type_check.get_types(in_data, 'in_types', False)
        try:
            check(in_types)
        except type_check.InvalidType:
            return False
        except IndexError:  # eager light mode, where a guard failed
            assert light
            return False
    return True


@given(st.sampled_from([elementwise_check, matmul_check, reshape_check]),
       arrays, arrays)
@settings(max_examples=300, deadline=None)
def test_light_and_symbolic_checks_agree(check, x, y):
    light = passes(check, (x, y), light=True)
    assert light == passes(check, (x, y), light=False)
    if light:
        type_check.check_types(check, (x, y), 'F')
    else:
        check_failure(check, (x, y))


LEAVES = [lambda t: t[0].ndim, lambda t: t[1].ndim, lambda t: t[0].size,
          lambda t: t[1].shape[0], lambda t: t[0].shape[-1]]
BINARY = [operator.add, operator.sub, operator.mul, operator.floordiv,
          operator.mod, operator.truediv, operator.and_, operator.or_,
          operator.xor, operator.lshift, operator.rshift, operator.eq,
          operator.ne, operator.lt, operator.le, operator.gt, operator.ge]
UNARY = [operator.neg, operator.pos, operator.invert]


def terms():
    """Builders of an expression from in_types, usable in both modes."""
    leaves = st.sampled_from(LEAVES) | st.integers(-3, 3).map(
        lambda value: lambda t: value)
    return st.recursive(leaves, lambda inner: st.one_of(
        st.builds(lambda op, a, b: lambda t: op(a(t), b(t)),
                  st.sampled_from(BINARY), inner, inner),
        st.builds(lambda op, a: lambda t: op(a(t)),
                  st.sampled_from(UNARY), inner),
        st.builds(lambda a, b: lambda t: a(t) ** (b(t) % 3), inner, inner),
    ), max_leaves=6)


def outcome(compute):
    try:
        return 'value', compute()
    except (ArithmeticError, TypeError, ValueError) as error:
        return 'error', type(error)


@given(terms(), st.sampled_from([(2, 3), (4,), (1, 5, 2)]))
@settings(max_examples=300, deadline=None)
def test_expressions_compute_and_render_like_python(build, shape):
    data = (numpy.zeros(shape, numpy.float32), numpy.zeros((3, 1)))
    with type_check.light_mode:
        light_types = type_check.get_types(data, 'in_types', False)
        expected = outcome(lambda: build(light_types))
    built = outcome(lambda: build(type_check.get_types(
        data, 'in_types', False)))
    if built[0] == 'error':  # constants computed while built
        # With two failing subterms, the light run meets the first while
        # the symbolic build meets the first constant one: either error.
        assert expected[0] == 'error'
        return
    symbolic = built[1]
    assert outcome(lambda: type_check.eval(symbolic)) == expected
    if isinstance(symbolic, type_check.Expr):
        # The message text is Python source that computes the same value.
        rendered = outcome(lambda: builtins.eval(
            str(symbolic), {'in_types': light_types}))
        assert rendered == expected


# Cost


def test_light_mode_check_is_cheap():
    def check(in_types):
        x_type, w_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 2,
            x_type.shape[1] == w_type.shape[1],
        )

    number = 2000
    seconds = min(timeit.repeat(
        lambda: type_check.check_types(check, (X, W), 'F'),
        number=number, repeat=5)) / number
    # About 1.2 us on the reference machine; the bound only catches the
    # symbolic path (tens of us) running when it need not.
    assert seconds < 20e-6


def test_chainer_forms_of_expressions():
    # Operator priorities numbered as Chainer's: hand-built nodes render
    # alike.
    x, y = type_check.Variable(1, 'x'), type_check.Variable(2, 'y')
    add = operator.add
    assert str(type_check.BinaryOperator(7, x, y, '+', add)) == 'x + y'
    assert str(type_check.BinaryOperator(8, x, y, '+', add)) == 'x + (y)'
    assert str(type_check.BinaryOperator(8, x, y, '+', add,
                                         True)) == '(x) + y'
    assert str(type_check.UnaryOperator(9, x, '-', abs)) == '-(x)'
    assert str(x + y * 2) == 'x + y * 2' and str((x + y) * 2) == \
        '(x + y) * 2'

    class Object:
        value = 10

    obj = type_check.Variable(Object(), 'obj')
    assert str(type_check.GetAttr(obj, 'value')) == 'obj.value'
    assert str(type_check.GetAttr(obj, type_check.Constant('value'))) == \
        'obj.value'
    assert str(type_check.GetAttr(obj, 3)) == 'getattr(obj, 3)'
    assert type_check.GetAttr(obj, 'value').eval() == 10
    assert str(type_check.Variable({'a': 1}, 'd')['a']) == "d['a']"
    assert type_check.eval(type_check.Constant([[0]]) ==
                           [[type_check.Constant(0)]])
    assert type_check._repr([[type_check.Constant(0)]]) == '[[0]]'
    with pytest.raises(RuntimeError):
        bool(type_check.BoolBinaryOperator(x, y, '==', '!=',
                                           lambda a, b: a == b))


# checks_inputs


@type_check.checks_inputs
def _reads_inputs(x, *rest, b=None, scale=1.0, **options):
    """Reads x and b (as a function reading its inputs before any node)."""
    total = x.ndim + sum(r.ndim for r in rest)
    if b is not None:
        total += b.ndim
    return total * scale, options


def test_checks_inputs_keeps_the_signature_and_passes_every_argument():
    assert str(inspect.signature(_reads_inputs)) == (
        '(x, *rest, b=None, scale=1.0, **options)')
    assert _reads_inputs.__name__ == '_reads_inputs'
    assert _reads_inputs.__doc__.startswith('Reads x and b')
    assert _reads_inputs(X, X, b=X, scale=2.0, flag=True) == (
        12.0, {'flag': True})


@pytest.mark.parametrize('call, message', [
    (lambda: _reads_inputs(None), 'input 0 must be a Variable or an array, '
     'got NoneType'),
    (lambda: _reads_inputs(X, X, [1.0]), 'input 2 must be a Variable or an '
     'array, got list'),
    (lambda: _reads_inputs(X, b=1.5), 'input b must be a Variable or an '
     'array, got float'),
    # (a None among *rest is no keyword-only parameter's default)
    (lambda: _reads_inputs(X, X, None), 'input 2 must be a Variable or an '
     'array, got NoneType'),
])
def test_checks_inputs_blames_the_argument_that_is_no_array(call, message):
    with pytest.raises(type_check.NotAnArrayError) as info:
        call()
    assert str(info.value) == f'_reads_inputs: {message}'
    assert isinstance(info.value.__cause__, AttributeError)


def test_checks_inputs_blames_no_default_and_notes_other_errors():
    # b=None is its default: the AttributeError of scale (a str) is not
    # blamed on it, nor on scale (its type is not named in quotes).
    with pytest.raises(TypeError) as info:
        _reads_inputs(X, scale=object())
    assert not isinstance(info.value, type_check.NotAnArrayError)
    assert info.value.__notes__ == ['(raised in _reads_inputs())']


def test_checks_inputs_blames_the_object_an_attribute_error_names():
    # Two lists; the error is about the second one read, which is blamed.
    @type_check.checks_inputs
    def reads_second(first, second):
        return len(first) + second.ndim

    with pytest.raises(type_check.NotAnArrayError,
                       match='^reads_second: input 1 must be'):
        reads_second([1.0], [2.0])
