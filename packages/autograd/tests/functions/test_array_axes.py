"""Reshaping and axis functions beyond the conformance records: argument
errors and NumPy parity of the axis conventions."""
import numpy
import pytest

from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd.functions.array.transpose import Transpose
from kusari.autograd.utils import type_check

X = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4)


@pytest.mark.parametrize('func, match', [
    (lambda: F.expand_dims(X, 4), 'expand_dims: axis'),
    (lambda: F.expand_dims(X, -5), 'expand_dims: axis'),
    (lambda: F.swapaxes(X, 0, 3), 'swapaxes: axis2'),
    (lambda: F.moveaxis(X, 3, 0), 'moveaxis: source'),
    (lambda: F.rollaxis(X, 0, 4), 'rollaxis: start'),
    (lambda: F.rollaxis(X, 0, -4), 'rollaxis: start'),
    (lambda: F.squeeze(X, 3), 'squeeze: axis'),
    (lambda: F.diagonal(X, 0, 0, 5), 'diagonal: axis2'),
    (lambda: F.fliplr(X[0, 0]), 'fliplr'),
    (lambda: F.flipud(numpy.asarray(1, 'f')), 'flipud'),
])
def test_axis_out_of_range(func, match):
    with pytest.raises(type_check.InvalidType, match=match):
        func()


def test_flip_helper_matches_numpy_flip():
    """functions.array.flip._flip, the array-level flip Chainer's tests
    compare with."""
    from kusari.autograd.functions.array.flip import _flip
    x = numpy.arange(24).reshape(2, 3, 4)
    for axis in range(-3, 3):
        numpy.testing.assert_array_equal(_flip(x, axis),
                                         numpy.flip(x, axis))


def test_flip_axis_out_of_range_is_a_type_error():
    with pytest.raises(type_check.InvalidType, match='axis'):
        F.flip(X, 3)
    with pytest.raises(TypeError, match='flip: axis'):
        F.flip(X, None)
    for x in (X[0, 0], X[0, 0, 0]):
        with pytest.raises(type_check.InvalidType,
                           match='fliplr: x must have at least 2 axes; got'):
            F.fliplr(x)
    with pytest.raises(type_check.InvalidType,
                       match='flipud: x must have at least 1 axes; got shape'):
        F.flipud(X[0, 0, 0])


@pytest.mark.parametrize('x', [X[0], X, X[0, 0]], ids=['2-d', '3-d', '1-d'])
def test_fliplr_and_flipud_match_numpy_from_their_least_axes(x):
    if x.ndim >= 2:
        numpy.testing.assert_array_equal(F.fliplr(x).array, numpy.fliplr(x))
    numpy.testing.assert_array_equal(F.flipud(x).array, numpy.flipud(x))


@pytest.mark.parametrize('axes', [(2, 1), (0, 3), (0, 0), (1, 1), (-3, 0)])
def test_transpose_axes_must_be_a_permutation(axes):
    with pytest.raises(ValueError, match='transpose: axes must be a '
                                         'permutation of range'):
        F.transpose(X[0], axes)


def test_transpose_takes_negative_axes():
    numpy.testing.assert_array_equal(F.transpose(X, (-1, 0, -2)).array,
                                     numpy.transpose(X, (2, 0, 1)))


@pytest.mark.parametrize('x', [X, X[0, 0]], ids=['3-d', '1-d'])
def test_transpose_node_wants_an_axis_per_dimension_of_x(x):
    with pytest.raises(type_check.InvalidType, match='x.ndim == 2'):
        Transpose((1, 0)).apply((x,))


def test_rollaxis_negative_start_counts_from_ndim():
    numpy.testing.assert_array_equal(F.rollaxis(X, 2).array,
                                     numpy.rollaxis(X, 2))  # start 0
    for axis in range(-3, 3):
        for start in range(-3, 4):
            numpy.testing.assert_array_equal(
                F.rollaxis(X, axis, start).array,
                numpy.rollaxis(X, axis, start))


def test_moveaxis_errors():
    for source, destination in (((0, 1), 2), (0, (1, 2))):
        with pytest.raises(ValueError, match='same number'):
            F.moveaxis(X, source, destination)
    with pytest.raises(ValueError, match='repeats'):
        F.moveaxis(X, (0, 0), (1, 2))


def test_squeeze_non_unit_axis():
    with pytest.raises(ValueError, match='squeeze: axis 1 of x has length'):
        F.squeeze(numpy.zeros((1, 3, 1), 'f'), (0, 1))
    assert F.squeeze(numpy.zeros((1, 3, 1), 'f')).shape == (3,)
    # An empty axis is not of length 1 either.
    with pytest.raises(ValueError, match='squeeze: axis 0 of x has length 0'):
        F.squeeze(numpy.zeros((0, 3), 'f'), 0)


def test_identity_permutations_build_no_node():
    x = Variable(X)
    assert F.swapaxes(x, 1, 1) is x
    assert F.moveaxis(x, 0, 0) is x


def test_reshape_checks_the_size():
    x = numpy.zeros((2, 3), numpy.float32)
    # Sizes above and below x's, a known part that does not divide it.
    for shape, check in (((7,), 'x.size == 7'), ((5,), 'x.size == 5'),
                         ((4, -1), 'x.size % 4 == 0')):
        with pytest.raises(type_check.InvalidType, match=check):
            F.reshape(x, shape)
    # A known part of 0 is left to NumPy (no division by it).
    with pytest.raises(ValueError, match='cannot reshape'):
        F.reshape(x, (-1, 0))
    for shape in ((-1, -1), (-2, 3), (-1, -1, 6)):
        with pytest.raises(ValueError, match='reshape: shape may hold a '
                                             'single -1'):
            F.reshape(x, shape)


def test_diagonal_defaults_are_numpys():
    x = numpy.arange(24, dtype=numpy.float32).reshape(3, 4, 2)
    numpy.testing.assert_array_equal(F.diagonal(x).array,
                                     numpy.diagonal(x))


def test_diagonal_same_axes():
    with pytest.raises(ValueError, match='axis1 and axis2 must differ'):
        F.diagonal(X, 0, 1, -2)
    with pytest.raises(type_check.InvalidType, match='at least 2 axes'):
        F.diagonal(X[0, 0])


def test_tile_and_repeat_argument_errors():
    with pytest.raises(ValueError, match='tile: reps'):
        F.tile(X, (2, -1))
    with pytest.raises(TypeError, match='tile: reps'):
        F.tile(X, 1.5)
    with pytest.raises(ValueError, match='repeat: repeats'):
        F.repeat(X, -1)
    with pytest.raises(TypeError, match='repeat: axis'):
        F.repeat(X, 1, True)
    # One count per element of the axis: not more.
    with pytest.raises(type_check.InvalidType, match='len'):
        F.repeat(X, (1, 2, 3), axis=0)


@pytest.mark.parametrize('repeats, expected', [
    (True, [0, 1, 2]), (False, []), ((True, False, True), [0, 2]),
    ((True,), [0, 1, 2])])
def test_repeat_counts_bools_as_numpy_does(repeats, expected):
    y = F.repeat(numpy.arange(3, dtype=numpy.float32), repeats, 0)
    numpy.testing.assert_array_equal(y.array, expected)
    with pytest.raises(type_check.InvalidType, match='len\\(repeats\\)'):
        F.repeat(X, (1, 2), axis=1)


def test_flatten_and_expand_dims_share_memory():
    assert numpy.shares_memory(F.flatten(X).array, X)
    assert numpy.shares_memory(F.expand_dims(X, -1).array, X)
    assert F.expand_dims(X, -1).shape == (2, 3, 4, 1)
