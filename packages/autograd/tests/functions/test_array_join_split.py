"""Joining and splitting functions beyond the conformance records:
argument errors, options, partial gradients."""
import numpy
import pytest

from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd.utils import type_check


def _x(*shape, seed=0):
    return numpy.random.RandomState(seed).uniform(
        -1, 1, shape).astype(numpy.float32)


@pytest.mark.parametrize('xs, check', [
    # A later input of another dtype or number of axes, either way, or of
    # another length before the axis joined (axis 1).
    ([_x(2, 3), _x(2, 3).astype(numpy.float64)], 'dtype'),
    ([_x(2, 3), _x(2, 3).astype(numpy.float16)], 'dtype'),
    ([_x(2, 3), _x(2, 3, 1)], 'ndim'),
    ([_x(2, 3, 1), _x(2, 3)], 'ndim'),
    ([_x(2, 3), _x(3, 3)], r'shape\[0\]'),
])
def test_concat_checks_each_input_against_the_first(xs, check):
    with pytest.raises(type_check.InvalidType, match=check):
        F.concat(xs, axis=1)


def test_concat_mismatched_shapes_names_inputs():
    with pytest.raises(type_check.InvalidType) as info:
        F.concat([_x(2, 3), _x(2, 2)], axis=0)
    assert 'Concat' in str(info.value)
    assert 'xs[1].shape[1] == xs[0].shape[1]' in str(info.value)


@pytest.mark.parametrize('func', [
    lambda xs: F.concat(xs, axis=2), lambda xs: F.stack(xs, axis=3),
    lambda xs: F.stack(xs, axis=-4),
    # Past the last axis by more than one.
    lambda xs: F.concat(xs, axis=3), lambda xs: F.stack(xs, axis=4),
    lambda xs: F.split_axis(xs[0], 2, axis=3),
    # Axis 0 or -1 of 0-d inputs.
    lambda xs: F.concat([xs[0][0, 0, ...]] * 2, axis=0),
    lambda xs: F.concat([xs[0][0, 0, ...]] * 2, axis=-1),
    lambda xs: F.split_axis(xs[0][0, 0, ...], 1, axis=0)])
def test_axis_out_of_range(func):
    with pytest.raises(type_check.InvalidType, match='axis'):
        func([_x(2, 3), _x(2, 3)])


@pytest.mark.parametrize('func', [F.concat, F.stack, F.hstack, F.vstack,
                                  F.dstack, F.pad_sequence])
def test_empty_sequence(func):
    with pytest.raises(ValueError, match='at least one'):
        func([])
    # The node applied directly (as Chainer's code may) checks it too.
    from kusari.autograd.functions.array import _concat_split
    with pytest.raises(type_check.InvalidType, match='size'):
        _concat_split.Concat(0).apply(())


@pytest.mark.parametrize('second, needle', [
    # Shapes that sort after and before the first's; a wider and a
    # narrower dtype.
    (_x(3, 2), 'shape'), (_x(2, 2), 'shape'),
    (_x(2, 3).astype(numpy.float64), 'dtype'),
    (_x(2, 3).astype(numpy.float16), 'dtype')])
def test_stack_mismatched_shapes_and_dtypes(second, needle):
    with pytest.raises(type_check.InvalidType, match=needle):
        F.stack([_x(2, 3), second])


@pytest.mark.parametrize('axis', [1.0, '1', True])
def test_non_integer_axis(axis):
    with pytest.raises(TypeError, match='concat: axis must be an int'):
        F.concat([_x(2, 3)], axis=axis)


def test_split_axis_force_tuple():
    x = _x(2, 4)
    assert isinstance(F.split_axis(x, 1, 1), tuple)
    y = F.split_axis(x, 1, 1, force_tuple=False)
    assert isinstance(y, Variable) and y.shape == (2, 4)
    assert len(F.split_axis(x, 2, 1, force_tuple=False)) == 2


def test_split_axis_argument_errors():
    x = _x(2, 4)
    with pytest.raises(type_check.InvalidType, match='sections'):
        F.split_axis(x, 3, 1)
    for indices in ([1, -1], [-1, 1]):
        with pytest.raises(ValueError,
                           match='indices_or_sections must be >= 0'):
            F.split_axis(x, indices, 1)
    with pytest.raises(ValueError, match='indices_or_sections'):
        F.split_axis(x, 0, 1)
    with pytest.raises(TypeError, match='indices_or_sections'):
        F.split_axis(x, [1.5], 1)
    with pytest.raises(type_check.InvalidType, match='max'):
        F.split_axis(x, [1, 5], 1)
    # Unsorted indices would give overlapping pieces whose gradients do
    # not concatenate to x's shape.
    with pytest.raises(ValueError, match='must be sorted'):
        F.split_axis(x, [2, 1], 1)


def test_split_axis_accepts_an_index_array():
    ys = F.split_axis(_x(2, 5), numpy.array([1, 3]), 1)
    assert [y.shape for y in ys] == [(2, 1), (2, 2), (2, 2)]


@pytest.mark.parametrize('split', [
    lambda x: F.split_axis(x, 3, 0), lambda x: F.separate(x, 0),
    lambda x: F.transpose_sequence([x[0], x[1], x[2]])])
def test_unused_outputs_get_zero_gradients(split):
    x = Variable(_x(3, 2))
    ys = split(x)
    ys[1].grad = numpy.ones(ys[1].shape, numpy.float32)
    ys[1].backward()
    assert x.grad is not None
    assert x.grad.sum() == ys[1].size


def test_separate_of_vector_gives_zero_dim_arrays():
    ys = F.separate(_x(3))
    assert all(isinstance(y.array, numpy.ndarray) and y.shape == ()
               for y in ys)


def test_stacking_functions_promote_like_numpy():
    a, b = _x(3), _x(3, seed=1)
    numpy.testing.assert_array_equal(F.hstack([a, b]).array,
                                     numpy.hstack([a, b]))
    numpy.testing.assert_array_equal(F.vstack([a, b]).array,
                                     numpy.vstack([a, b]))
    numpy.testing.assert_array_equal(F.dstack([a, b]).array,
                                     numpy.dstack([a, b]))
    scalar = numpy.asarray(2, numpy.float32)
    assert F.hstack([scalar, a]).shape == (4,)
    # One input: promoted and joined with nothing; inputs of more axes
    # than the least each function promotes to: joined as they are.
    c, d = _x(2, 3, 4, 2), _x(2, 3, 4, 2, seed=1)
    for func, reference in ((F.hstack, numpy.hstack), (F.vstack, numpy.vstack),
                            (F.dstack, numpy.dstack)):
        numpy.testing.assert_array_equal(func([a]).array, reference([a]))
        numpy.testing.assert_array_equal(func([c, d]).array,
                                         reference([c, d]))


def test_concat_joins_along_axis_1_by_default():
    a, b = _x(2, 3, 2), _x(2, 1, 2, seed=1)
    numpy.testing.assert_array_equal(F.concat([a, b]).array,
                                     numpy.concatenate([a, b], axis=1))


def test_transpose_sequence_needs_sorted_lengths():
    with pytest.raises(type_check.InvalidType):
        F.transpose_sequence([_x(1, 2), _x(3, 2)])
    assert F.transpose_sequence([]) == ()
    # A later sequence of another dtype or row shape, either way.
    for later, check in ((_x(1, 2).astype(numpy.float64), 'dtype'),
                         (_x(1, 2).astype(numpy.float16), 'dtype'),
                         (_x(1, 3), 'shape'), (_x(1, 1), 'shape')):
        with pytest.raises(type_check.InvalidType, match=check):
            F.transpose_sequence([_x(2, 2), later])


def test_transpose_sequence_empty_sequence_at_end():
    xs = [Variable(_x(2, 2)), Variable(_x(0, 2))]
    ys = F.transpose_sequence(xs)
    assert [y.shape for y in ys] == [(1, 2), (1, 2)]
    F.sum(F.concat(ys, 0)).backward()
    assert xs[1].grad.shape == (0, 2)
    numpy.testing.assert_array_equal(xs[0].grad, numpy.ones((2, 2)))


def test_pad_sequence_options():
    y = F.pad_sequence([numpy.ones(2, 'f'), numpy.ones(3, 'f')], length=4,
                       padding=-1)
    numpy.testing.assert_array_equal(
        y.array, [[1, 1, -1, -1], [1, 1, 1, -1]])
    with pytest.raises(type_check.InvalidType, match='length'):
        F.pad_sequence([numpy.ones(5, 'f')], length=4)
    # A padding out of the dtype's range casts as arrays cast.
    y = F.pad_sequence(
        [numpy.ones(1, numpy.uint8), numpy.ones(2, numpy.uint8)], padding=-1)
    assert y.dtype == numpy.uint8
    numpy.testing.assert_array_equal(y.array, [[1, 255], [1, 1]])
    with pytest.raises(ValueError, match='length'):
        F.pad_sequence([numpy.ones(5, 'f')], length=-1)
    # A length of 0 for sequences of none.
    assert F.pad_sequence([numpy.ones((0, 2), 'f')], length=0).shape == (
        1, 0, 2)


def test_pad_sequence_checks_its_inputs():
    # A later sequence of another dtype or row shape, either way; 0-d
    # inputs; the node applied directly (as Chainer's code may) to none.
    first = numpy.ones((2, 2), 'f')
    for later, check in ((first.astype(numpy.float64), 'dtype'),
                         (first.astype(numpy.float16), 'dtype'),
                         (numpy.ones((1, 3), 'f'), 'shape'),
                         (numpy.ones((1, 1), 'f'), 'shape')):
        with pytest.raises(type_check.InvalidType, match=check):
            F.pad_sequence([first, later])
    with pytest.raises(type_check.InvalidType, match='ndim'):
        F.pad_sequence([numpy.ones((), 'f')])
    from kusari.autograd.functions.array import pad_sequence
    with pytest.raises(type_check.InvalidType, match='size'):
        pad_sequence.PadSequence(None, 0).apply(())
