"""Unpooling, upsampling and spatial pyramid pooling: their relation to
pooling, output sizes, and argument errors."""
import numpy
import pytest

from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd import gradient_check
from kusari.autograd.utils import type_check

from static_replays import check_replays


def _distinct(shape, seed=0):
    size = int(numpy.prod(shape))
    order = numpy.random.RandomState(seed).permutation(size)
    return order.reshape(shape).astype(numpy.float64) * 0.1


def test_unpooling_repeats_each_element_over_its_window():
    x = numpy.arange(6, dtype=numpy.float32).reshape(1, 1, 2, 3)
    y = F.unpooling_2d(x, 2, cover_all=False)
    numpy.testing.assert_array_equal(
        y.array[0, 0], numpy.repeat(numpy.repeat(x[0, 0], 2, 0), 2, 1))
    # Average pooling undoes it.
    numpy.testing.assert_array_equal(F.average_pooling_2d(y, 2).array, x)


@pytest.mark.parametrize('cover_all, expected', [(True, (5, 7)),
                                                 (False, (6, 8))])
def test_unpooling_default_outsize(cover_all, expected):
    x = numpy.zeros((1, 1, 3, 4), dtype=numpy.float32)
    assert F.unpooling_2d(x, 2, cover_all=cover_all).shape[2:] == expected
    assert F.unpooling_nd(x, 2, cover_all=cover_all).shape[2:] == expected


def test_unpooling_where_the_padding_eats_the_output():
    """As in Chainer, an axis whose default outsize is 0 gives an empty
    output (pad 1 on each side of one 1-wide window)."""
    x = Variable(numpy.ones((2, 3, 3, 2), dtype=numpy.float32))
    y = F.unpooling_nd(x, 1, 2, 1, cover_all=True)
    assert y.shape == (2, 3, 2, 0)
    y.grad = numpy.zeros(y.shape, dtype=numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.zeros_like(x.array))


def test_unpooling_outsize_mismatch_is_a_type_error():
    """outsize must pool back to x's spatial shape: InvalidType, as in
    Chainer's type check."""
    x = numpy.zeros((1, 1, 6), dtype=numpy.float32)
    with pytest.raises(type_check.InvalidType, match='pools to'):
        F.unpooling_nd(x, 2, outsize=(10,), cover_all=False)
    assert F.unpooling_nd(x, 2, outsize=(13,), cover_all=False).shape == \
        (1, 1, 13)


def test_unpooling_overlapping_windows_add():
    y = F.unpooling_1d(numpy.ones((1, 1, 3)), 3, 1, cover_all=False)
    numpy.testing.assert_array_equal(y.array[0, 0], [1, 2, 3, 2, 1])


def test_unpooling_gradients_of_every_order():
    x = numpy.random.RandomState(0).uniform(-1, 1, (2, 1, 2, 3, 2))
    y_shape = F.unpooling_3d(x, 2, 1, 1, cover_all=False).shape
    gy = numpy.random.RandomState(1).uniform(-1, 1, y_shape)
    gradient_check.check_double_backward(
        lambda v: F.unpooling_3d(v, 2, 1, 1, cover_all=False) ** 2, x, gy,
        numpy.random.RandomState(2).uniform(-1, 1, x.shape))


def test_upsampling_inverts_max_pooling():
    x = _distinct((2, 3, 6, 5))
    y, indexes = F.max_pooling_2d(x, 2, return_indices=True)
    up = F.upsampling_2d(y, indexes, 2, outsize=(6, 5))
    # Every maximum returns to its place; the rest is zero.
    mask = up.array != 0
    numpy.testing.assert_array_equal(up.array[mask], x[mask])
    assert mask.sum() == y.size
    numpy.testing.assert_array_equal(
        F.max_pooling_2d(up, 2).array, y.array)


def test_upsampling_drops_what_falls_past_the_output():
    # cover_all windows reach past the output: what their indexes put
    # there is cut off, as in Chainer.
    x = numpy.arange(1, 5, dtype=numpy.float64).reshape(1, 1, 2, 2)
    # Window (0, 1) puts 2 at (0, 4), window (1, 0) 3 at (4, 0): both
    # past the 4 x 4 output; 1 and 4 land at (2, 2).
    indexes = numpy.array([[[[8, 2], [6, 0]]]], dtype=numpy.int32)
    up = F.upsampling_2d(x, indexes, 3, 2, cover_all=True)
    expected = numpy.zeros((4, 4))
    expected[2, 2] = 5
    numpy.testing.assert_array_equal(up.array[0, 0], expected)


def test_upsampling_gradient_gathers_and_is_twice_differentiable():
    x = _distinct((1, 2, 5, 5))
    y, indexes = F.max_pooling_2d(x, 3, 2, 1, return_indices=True)
    gradient_check.check_double_backward(
        lambda v: F.upsampling_2d(v, indexes, 3, 2, 1, outsize=(5, 5)) ** 2,
        y.array, numpy.ones((1, 2, 5, 5)),
        numpy.random.RandomState(3).uniform(-1, 1, y.shape))


@pytest.mark.parametrize('call, error, match', [
    (lambda x, i: F.unpooling_2d(x, 2, outsize=(9, 9)),
     type_check.InvalidType, r'unpooling_2d: outsize \(9, 9\) pools to'),
    (lambda x, i: F.unpooling_2d(x[0], 2), ValueError,
     'unpooling_2d: x must have 2 spatial axes'),
    (lambda x, i: F.unpooling_nd(x, 3, 1, 3, cover_all=False), ValueError,
     'unpooling_nd: x of spatial shape'),
    # The default size (2 - 1) * 1 + 4 - 2 * 3 = -1: one short of empty.
    (lambda x, i: F.unpooling_nd(x, 4, 1, 3, cover_all=False), ValueError,
     r'unpooling_nd: x of spatial shape \(2, 2\) unpools to the negative'),
    (lambda x, i: F.unpooling_nd(x, 2, outsize=(0, 4)), ValueError,
     'unpooling_nd: outsize must be at least 1'),
    # Indexes of a shorter and of a longer last axis.
    (lambda x, i: F.upsampling_2d(x, i[..., :1], 2), ValueError,
     'upsampling_2d: indexes must have the shape of x'),
    (lambda x, i: F.upsampling_2d(x, numpy.concatenate([i, i[..., :1]], -1),
                                  2),
     ValueError, 'upsampling_2d: indexes must have the shape of x'),
    *[(lambda x, i, shift=shift: F.upsampling_2d(x, i + shift, 2),
       ValueError, r'upsampling_2d: indexes must be in \[0, 4\)')
      for shift in (4, 5, -1)],
    (lambda x, i: F.upsampling_2d(x, i.astype(numpy.float32), 2),
     TypeError, 'upsampling_2d: indexes must be an int array'),
    (lambda x, i: F.upsampling_2d(x.astype(numpy.int32), i, 2),
     type_check.InvalidType, 'dtype.kind'),
    (lambda x, i: F.upsampling_2d(x.astype(numpy.complex64), i, 2),
     type_check.InvalidType, 'dtype.kind'),
    (lambda x, i: F.spatial_pyramid_pooling_2d(x, 2), ValueError,
     "spatial_pyramid_pooling_2d: pooling must be 'max'"),
    *[(lambda x, i, height=height: F.spatial_pyramid_pooling_2d(
        x, height, pooling='max'), ValueError,
        'spatial_pyramid_pooling_2d: pyramid_height')
      for height in (0, True, 1.5)],
    *[(lambda x, i, index=index: F.spatial_pyramid_pooling_2d(
        x[index], 1, pooling='max'), ValueError,
        r'spatial_pyramid_pooling_2d: x must be \(n, c, h, w\)')
      for index in (0, None)],  # x of 3 or 5 axes
])
def test_argument_errors(call, error, match):
    x = numpy.zeros((1, 2, 2, 2), dtype=numpy.float32)
    indexes = numpy.zeros((1, 2, 2, 2), dtype=numpy.int32)
    with pytest.raises(error, match=match):
        call(x, indexes)


def test_spatial_pyramid_pooling_levels():
    x = _distinct((2, 3, 8, 6))
    y = F.spatial_pyramid_pooling_2d(Variable(x), 3, pooling='max')
    assert y.shape == (2, 3 * (1 + 4 + 16), 1, 1)
    numpy.testing.assert_array_equal(y.array[:, :3, 0, 0],
                                     x.max(axis=(2, 3)))
    level1 = F.max_pooling_2d(x, (4, 3)).array.reshape(2, -1)
    numpy.testing.assert_array_equal(y.array[:, 3:15, 0, 0], level1)


def test_upsampling_reads_the_indexes_anew_on_replays():
    x = numpy.random.RandomState(0).uniform(-1, 1, (1, 2, 2, 2))
    check_replays(
        lambda x, indexes: F.upsampling_2d(x, indexes, 2, outsize=(4, 4)),
        [(x, numpy.random.RandomState(seed).randint(0, 4, x.shape))
         for seed in range(3)])


def _pool_and_upsample(x):
    """SegNet's pattern: upsampling_2d reads the argmax of a max pooling
    of the same chain."""
    y, indexes = F.max_pooling_2d(x, 2, return_indices=True)
    return F.upsampling_2d(y * 2, indexes, 2, outsize=x.shape[2:])


def test_pooling_indexes_in_a_static_chain_are_those_of_each_call():
    rng = numpy.random.RandomState(0)
    check_replays(_pool_and_upsample,
                  [(rng.uniform(-1, 1, (2, 3, 4, 4)),) for _ in range(3)])
