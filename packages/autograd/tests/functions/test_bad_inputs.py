"""Wrong inputs get an InvalidType, a TypeError or a ValueError that names
the function (the generic sweep over every function is
conformance/test_bad_calls.py)."""
import numpy
import pytest

from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd.utils import type_check


@pytest.mark.parametrize('call, expect', [
    (lambda: F.embed_id(numpy.array([0.5], 'f'), numpy.ones((3, 2), 'f')),
     'x.dtype.kind in iu'),
    (lambda: -Variable(numpy.array(['a'])), 'x.dtype.kind in iufc'),
    (lambda: Variable(numpy.array([True])) * 2, 'x.dtype.kind in iufc'),
    (lambda: abs(Variable(numpy.array([object()], dtype=object))),
     'x.dtype.kind in iufc'),
])
def test_dtype_kind_conditions_fail_as_invalid_type(call, expect):
    with pytest.raises(type_check.InvalidType) as info:
        call()
    assert info.value.expect == expect


@pytest.mark.parametrize('function', [F.sum, F.absolute])
@pytest.mark.parametrize('dtype', [numpy.bool_, numpy.int32, numpy.uint8,
                                   numpy.complex64])
def test_non_float_inputs_are_rejected_at_forward_as_in_chainer(
        function, dtype):
    x = Variable(numpy.ones((2, 3), dtype))
    with pytest.raises(type_check.InvalidType) as info:
        function(x)
    assert info.value.expect.startswith('x.dtype.kind')


X = numpy.ones((2, 3), numpy.float32)


@pytest.mark.parametrize('call, message', [
    (lambda: F.matmul(X, None),
     'matmul: input 1 must be a Variable or an array, got NoneType'),
    (lambda: F.flatten(None),
     'flatten: input 0 must be a Variable or an array, got NoneType'),
    (lambda: F.flatten([1.0, 2.0]),
     'flatten: input 0 must be a Variable or an array, got list'),
    (lambda: F.swapaxes(1.0, 0, 1),
     'swapaxes: input 0 must be a Variable or an array, got float'),
    (lambda: F.vstack([X, None]),
     'vstack: input 0[1] must be a Variable or an array, got NoneType'),
    (lambda: F.relu(None),
     'ReLU: input 0 must be a Variable or an array, got NoneType'),
    (lambda: F.relu([1.0]),
     'ReLU: input 0 must be a Variable or an array, got list'),
    # The N-d convolutions read x's axes before applying a node.
    (lambda: F.convolution_1d(None, X[None]),
     'convolution_1d: input 0 must be a Variable or an array, got NoneType'),
    (lambda: F.convolution_nd([[[1.0]]], X[None]),
     'convolution_nd: input 0 must be a Variable or an array, got list'),
    (lambda: F.deconvolution_3d(None, X[None, :, :, None, None]),
     'deconvolution_3d: input 0 must be a Variable or an array, got '
     'NoneType'),
    (lambda: F.deconvolution_nd(None, X[None]),
     'deconvolution_nd: input 0 must be a Variable or an array, got '
     'NoneType'),
])
def test_non_array_inputs_name_the_function_and_the_input(call, message):
    with pytest.raises(type_check.NotAnArrayError) as info:
        call()
    assert str(info.value) == message


def test_checks_inputs_keeps_the_errors_of_options():
    # A failing check of an option keeps its own message, though the
    # option is a Python scalar.
    with pytest.raises(TypeError, match='axis must be an int'):
        F.bias(X, X[0], axis=1.0)


def test_errors_of_inner_nodes_note_the_function_called():
    # F.average fails in the node of a function it calls; the note names
    # F.average, the function the user called.
    with pytest.raises(type_check.InvalidType) as info:
        F.average(X.astype(bool))
    assert info.value.__notes__ == ['(raised in average())']
    with pytest.raises(type_check.NotAnArrayError) as info:
        F.add(X, None)
    assert str(info.value).startswith('_ + _: input 1 must be')
    assert info.value.__notes__ == ['(raised in add())']


def test_no_note_where_the_message_names_the_function():
    with pytest.raises(type_check.NotAnArrayError) as info:
        F.flatten(None)
    assert not hasattr(info.value, '__notes__')


GAMMA = numpy.ones(3, numpy.float32)


@pytest.mark.parametrize('call, error, match', [
    # Piecewise constant functions: NumPy has no bool or str loop.
    (lambda: F.sign(X.astype(bool)), TypeError,
     'sign: x must be an array of integer, unsigned integer, float or '
     'complex dtype, got bool'),
    (lambda: F.fix(X.astype(str)), TypeError,
     'fix: x must be an array of bool, integer, unsigned integer or float '
     'dtype, got <U32'),
    # Running statistics are updated in place: floats only.
    (lambda: F.batch_renormalization(
        X, GAMMA, GAMMA, 1.0, 1.0, running_mean=GAMMA.astype(complex),
        running_var=GAMMA), ValueError,
     "running_mean must be a float array of gamma's shape"),
    (lambda: F.gaussian(X, X, eps=X.astype(complex)), type_check.InvalidType,
     'eps.dtype.kind == f'),
    (lambda: F.transpose_sequence([numpy.array(1.0, numpy.float32)]),
     type_check.InvalidType, r'xs\[0\].ndim >= 1'),
    (lambda: F.sum_to(X.astype(str), (3,)), type_check.InvalidType,
     'x.dtype.kind in biufc'),
    (lambda: F.copy(None, -1), TypeError, '^copy: input 0 must be'),
    (lambda: F.forget(F.sin, [1.0]), TypeError, '^forget: input 1 must be'),
])
def test_wrong_dtypes_and_values_are_refused_naming_the_function(
        call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_a_composite_notes_itself_on_an_inner_functions_error():
    # batch_matmul fails in matmul (whose message names only that one).
    with pytest.raises(type_check.InvalidType) as info:
        F.batch_matmul(numpy.ones((2, 3, 4), numpy.float32),
                       numpy.ones((2, 5, 4), numpy.float32))
    assert str(info.value).startswith(
        'Invalid operation is performed in: MatMul')
    assert info.value.__notes__ == ['(raised in batch_matmul())']


@pytest.mark.parametrize('offset_dtype', [bool, numpy.int32, numpy.float64])
def test_deformable_convolution_offsets_are_of_the_dtype_of_x(offset_dtype):
    x = numpy.ones((1, 2, 4, 4), numpy.float32)
    offset = numpy.zeros((1, 8, 3, 3), offset_dtype)
    W = numpy.ones((2, 2, 2, 2), numpy.float32)
    with pytest.raises(TypeError, match='x and offset must be float arrays '
                                        'of one dtype'):
        F.deformable_convolution_2d_sampler(x, offset, W)


def test_integer_and_bool_inputs_chainer_takes_are_taken():
    y = numpy.array([0.5, -0.5, 1.0])
    numpy.testing.assert_allclose(
        F.bernoulli_nll(numpy.array([0, 1, 1]), y).array,
        F.bernoulli_nll(numpy.array([0.0, 1.0, 1.0]), y).array)
    assert F.floor(numpy.array([True, False])).dtype == bool
    assert F.sign(numpy.array([2j])).array == 1j
    embeddings = numpy.ones((1, 2, 3, 3), numpy.float32)
    labels = numpy.zeros((1, 3, 3), numpy.uint8)
    F.discriminative_margin_based_clustering_loss(
        embeddings, labels, 0.5, 1.5, 2)


@type_check.checks_inputs
def _two_inputs(a, b):
    return F.relu(a) + F.relu(b)


def test_an_inner_functions_non_array_is_blamed_on_the_input_it_came_from():
    with pytest.raises(type_check.NotAnArrayError) as info:
        F.batch_matmul(X[None], [1.0])
    assert str(info.value) == (
        'batch_matmul: input 1 must be a Variable or an array, got list')
    with pytest.raises(type_check.NotAnArrayError) as info:
        _two_inputs(X, [1.0])
    assert str(info.value).startswith('_two_inputs: input 1 must be')
    # Two Nones: which one F.relu was given is unknown; its error stays.
    with pytest.raises(type_check.NotAnArrayError) as info:
        _two_inputs(None, None)
    assert str(info.value).startswith('ReLU: input 0 must be')


@pytest.mark.parametrize('call', [
    lambda: F.batch_matmul(X[None], X[None], transb=True),
    lambda: F.fixed_batch_renormalization(X, GAMMA, GAMMA, GAMMA, GAMMA),
    lambda: F.batch_normalization(X[:1], GAMMA, GAMMA),
])
def test_warnings_of_decorated_functions_point_at_the_caller(call):
    with pytest.warns(Warning) as record:
        call()
    assert [warning.filename for warning in record] == [__file__]
