"""Max and average pooling against a NumPy loop over output positions,
for every combination of options, plus argument errors."""
import itertools

import numpy
import pytest

from kusari.array import lazy_cupy
from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd import gradient_check
from kusari.autograd.functions.pooling import max_pooling_nd
from kusari.autograd.functions.pooling import pooling_nd
from kusari.autograd.utils import type_check


def _loop_pool_2d(x, ksize, stride, pad, cover_all, mode, pad_value=0):
    """Max / average pooling of ``(n, c, h, w)`` one output at a time."""
    kh, kw = ksize
    sy, sx = stride
    ph, pw = pad
    n, c, h, w = x.shape
    extra_y, extra_x = (sy - 1, sx - 1) if cover_all else (0, 0)
    out_h = (h + 2 * ph - kh + extra_y) // sy + 1
    out_w = (w + 2 * pw - kw + extra_x) // sx + 1
    y = numpy.empty((n, c, out_h, out_w))
    indexes = numpy.empty((n, c, out_h, out_w), dtype=numpy.intp)
    for b, ch, i, j in itertools.product(range(n), range(c), range(out_h),
                                         range(out_w)):
        best, best_offset, total, count = -numpy.inf, 0, 0.0, 0
        for di, dj in itertools.product(range(kh), range(kw)):
            r, q = i * sy - ph + di, j * sx - pw + dj
            inside = 0 <= r < h and 0 <= q < w
            value = x[b, ch, r, q] if inside else (
                -numpy.inf if mode == 'max' else 0.0)
            if value > best:
                best, best_offset = value, di * kw + dj
            total += value if inside else 0.0
            count += inside
        if mode == 'max':
            y[b, ch, i, j], indexes[b, ch, i, j] = best, best_offset
        else:
            y[b, ch, i, j] = total / (kh * kw if pad_value == 0 else count)
    return y, indexes


def _distinct(shape, seed=0):
    size = int(numpy.prod(shape))
    order = numpy.random.RandomState(seed).permutation(size)
    return (order.reshape(shape) * 0.1 - size * 0.05).astype(numpy.float64)


_GEOMETRIES = [((2, 2), (2, 2), (0, 0)), ((3, 3), (2, 2), (1, 1)),
               ((3, 2), (1, 2), (1, 0)), ((2, 3), (3, 1), (0, 1)),
               ((1, 1), (2, 3), (0, 0))]


@pytest.mark.parametrize('ksize, stride, pad', _GEOMETRIES)
@pytest.mark.parametrize('cover_all', [True, False])
@pytest.mark.parametrize('tuple_args', [True, False])
def test_max_pooling_2d_matches_loop(ksize, stride, pad, cover_all,
                                     tuple_args):
    x = _distinct((2, 3, 7, 6))
    if not tuple_args and ksize[0] != ksize[1]:
        pytest.skip('only square windows can be given as one int')
    args = (ksize, stride, pad) if tuple_args else (
        ksize[0], stride[0] if stride[0] == stride[1] else stride, pad[0]
        if pad[0] == pad[1] else pad)
    expected, expected_indexes = _loop_pool_2d(x, ksize, stride, pad,
                                               cover_all, 'max')
    y, indexes = F.max_pooling_2d(x, *args, cover_all=cover_all,
                                  return_indices=True)
    numpy.testing.assert_array_equal(y.array, expected)
    numpy.testing.assert_array_equal(indexes, expected_indexes)


@pytest.mark.parametrize('ksize, stride, pad', _GEOMETRIES)
@pytest.mark.parametrize('pad_value', [0, None])
def test_average_pooling_matches_loop(ksize, stride, pad, pad_value):
    x = numpy.random.RandomState(1).uniform(-1, 1, (2, 3, 7, 6))
    expected, _ = _loop_pool_2d(x, ksize, stride, pad, False, 'average',
                                pad_value)
    y = F.average_pooling_nd(x, ksize, stride, pad, pad_value=pad_value)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-12)
    if pad_value == 0:
        y2 = F.average_pooling_2d(x, ksize, stride, pad)
        numpy.testing.assert_allclose(y2.array, expected, rtol=1e-12)


def test_stride_defaults_to_ksize():
    x = _distinct((1, 2, 6, 6))
    numpy.testing.assert_array_equal(F.max_pooling_2d(x, 3).array,
                                     F.max_pooling_2d(x, 3, 3).array)
    numpy.testing.assert_array_equal(F.average_pooling_2d(x, 2).array,
                                     F.average_pooling_2d(x, 2, 2).array)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_dtype_kept_and_gradients(dtype):
    x = _distinct((2, 2, 5, 5)).astype(dtype)
    for func in (lambda v: F.max_pooling_2d(v, 3, 2, 1),
                 lambda v: F.average_pooling_nd(v, 3, 2, 1, pad_value=None)):
        y = func(Variable(x))
        assert y.dtype == dtype
    gy = numpy.random.RandomState(2).uniform(-1, 1, (2, 2, 3, 3))
    gradient_check.check_backward(lambda v: F.max_pooling_2d(v, 3, 2, 1),
                                  x.astype(numpy.float64), gy)


def test_max_pooling_gradient_goes_to_argmax_and_twice_differentiable():
    x = Variable(_distinct((1, 1, 4, 4)))
    y = F.max_pooling_2d(x, 2)
    F.sum(y * y).backward(enable_double_backprop=True)
    gx = x.grad_var
    expected = numpy.zeros((4, 4))
    # The maximum of each 2 x 2 block receives 2 y.
    for i, j in itertools.product(range(2), range(2)):
        block = x.array[0, 0, 2 * i:2 * i + 2, 2 * j:2 * j + 2]
        r, q = numpy.unravel_index(block.argmax(), (2, 2))
        expected[2 * i + r, 2 * j + q] = 2 * block.max()
    numpy.testing.assert_allclose(gx.array[0, 0], expected)
    x.cleargrad()
    F.sum(gx * gx).backward()
    # d/dx sum((2 max)^2) = 8 max at each argmax.
    numpy.testing.assert_allclose(x.grad[0, 0], 4 * expected)


def test_overlapping_windows_accumulate_gradients():
    x = numpy.zeros((1, 1, 1, 5))
    x[0, 0, 0, 2] = 1  # the maximum of all three windows
    v = Variable(x)
    y = F.max_pooling_2d(v, (1, 3), 1, cover_all=False)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    numpy.testing.assert_array_equal(v.grad[0, 0, 0], [0, 0, 3, 0, 0])


def test_nd_variants_agree_with_2d():
    x = _distinct((2, 2, 5, 6))
    numpy.testing.assert_array_equal(
        F.max_pooling_nd(x, 3, 2, 1).array, F.max_pooling_2d(x, 3, 2, 1).array)
    x1 = _distinct((2, 2, 7))
    numpy.testing.assert_array_equal(
        F.max_pooling_1d(x1, 3, 2, 1, cover_all=False).array,
        F.max_pooling_2d(x1[..., None], (3, 1), (2, 1), (1, 0),
                         cover_all=False).array[..., 0])
    numpy.testing.assert_allclose(
        F.average_pooling_1d(x1, 3, 2, 1).array,
        F.average_pooling_2d(x1[..., None], (3, 1), (2, 1), (1, 0)
                             ).array[..., 0])
    x3 = _distinct((1, 2, 4, 3, 5))
    y3 = F.max_pooling_3d(x3, 2, cover_all=False).array
    assert y3.shape == (1, 2, 2, 1, 2)
    assert y3[0, 1, 1, 0, 1] == x3[0, 1, 2:4, 0:2, 2:4].max()
    assert F.average_pooling_3d(x3, (4, 3, 5)).array[0, 0, 0, 0, 0] == \
        pytest.approx(x3[0, 0].mean())


@pytest.mark.parametrize('x, ksize, stride, pad, max_pooled, averaged', [
    # A stride past the window and pad + 1: the last windows end before
    # the padded input does (Chainer 7.8.1's values).
    (numpy.arange(8.0), 1, 4, 2, [-numpy.inf, 2, 6, -numpy.inf], [0, 2, 6]),
    # A window longer than x, shorter than x padded.
    (numpy.arange(2.0), 4, 1, 1, [1], [0.25])])
def test_windows_of_the_padded_input(x, ksize, stride, pad, max_pooled,
                                     averaged):
    x = x.astype(numpy.float32)[None, None]
    numpy.testing.assert_array_equal(
        F.max_pooling_nd(x, ksize, stride, pad).array[0, 0], max_pooled)
    # Without cover_all, as many windows as the average takes; each
    # finite maximum's gradient goes to its element of x.
    xv = Variable(x)
    y = F.max_pooling_nd(xv, ksize, stride, pad, cover_all=False)
    numpy.testing.assert_array_equal(y.array[0, 0],
                                     max_pooled[:len(averaged)])
    F.sum(y).backward()
    numpy.testing.assert_array_equal(
        xv.grad[0, 0], numpy.isin(x[0, 0], max_pooled))
    numpy.testing.assert_array_equal(
        F.average_pooling_nd(x, ksize, stride, pad).array[0, 0], averaged)


def test_large_window_uses_argmax_path():
    # Windows of more than 32 elements: global pooling of a 7 x 7 map.
    x = _distinct((2, 3, 7, 7))
    y, indexes = F.max_pooling_2d(x, 7, return_indices=True)
    numpy.testing.assert_array_equal(y.array[..., 0, 0], x.max(axis=(2, 3)))
    numpy.testing.assert_array_equal(
        indexes[..., 0, 0], x.reshape(2, 3, -1).argmax(axis=-1))


@pytest.mark.parametrize('ksize', [(2, 3), (6, 6)])
def test_ties_go_to_the_first_offset(ksize):
    # Chainer's convention (argmax over the window in C order): where
    # several elements of a window hold its maximum, the first is the
    # argmax and alone gets the gradient; on both paths (up to 32 offsets
    # and over).
    kh, kw = ksize
    x = numpy.zeros((1, 2, 2 * kh, kw))
    x[0, 0, 1:kh] = 1.0         # ties from the second row of window 0
    x[0, 1, kh, -2:] = 2.0      # ties at the last two offsets of window 1
    x[0, 1, kh + 1:, 0] = 2.0   # and in its later rows
    v = Variable(x)
    y, indexes = F.max_pooling_2d(v, ksize, return_indices=True)
    numpy.testing.assert_array_equal(indexes[0, :, :, 0],
                                     [[kw, 0], [0, kw - 2]])
    y.grad = numpy.ones_like(y.array)
    y.backward()
    expected = numpy.zeros_like(x)
    expected[0, 0, 1, 0] = expected[0, 0, kh, 0] = 1
    expected[0, 1, 0, 0] = expected[0, 1, kh, kw - 2] = 1
    numpy.testing.assert_array_equal(v.grad, expected)


def test_window_past_the_uint8_count():
    # 289 offsets: the argmax path, as the comparisons count offsets in
    # uint8; the maximum at the last offset (288) in channel 0.
    x = _distinct((1, 2, 17, 17))
    x[0, 0, -1, -1] = x.max() + 1
    y, indexes = F.max_pooling_2d(x, 17, return_indices=True)
    numpy.testing.assert_array_equal(
        indexes[0, :, 0, 0], [288, x[0, 1].argmax()])


@pytest.mark.parametrize('ksize', [(2, 2), (6, 6)])
def test_nan_goes_to_the_first_nan(ksize):
    # Chainer's argmax: a window holding NaN pools to NaN, and its first
    # NaN is the argmax and gets the gradient; on both paths.
    kh, kw = ksize
    x = numpy.arange(kh * 2 * kw, dtype=numpy.float64).reshape(
        1, 1, kh, 2 * kw)
    x[0, 0, 0, 1] = x[0, 0, -1, kw - 1] = numpy.nan
    v = Variable(x)
    y, indexes = F.max_pooling_2d(v, ksize, return_indices=True)
    assert numpy.isnan(y.array[0, 0, 0, 0])
    assert y.array[0, 0, 0, 1] == x[0, 0, -1, -1]
    numpy.testing.assert_array_equal(indexes[0, 0, 0], [1, kh * kw - 1])
    y.grad = numpy.ones_like(y.array)
    y.backward()
    expected = numpy.zeros_like(x)
    expected[0, 0, 0, 1] = expected[0, 0, -1, -1] = 1
    numpy.testing.assert_array_equal(v.grad, expected)


def test_average_pooling_pad_value_none_ignores_padding():
    x = numpy.ones((1, 1, 3, 3))
    numpy.testing.assert_allclose(
        F.average_pooling_nd(x, 3, 1, 1, pad_value=None).array, 1.0)
    corner = F.average_pooling_nd(x, 3, 1, 1, pad_value=0).array[0, 0, 0, 0]
    assert corner == pytest.approx(4 / 9)


def test_average_pooling_pad_value_none_of_a_window_wholly_in_the_padding():
    # pad >= ksize: the border windows hold no input element; their mean
    # is 0 (Chainer's 0 / 0 is NaN), and no gradient flows from them.
    x = Variable(numpy.arange(1.0, 5.0).reshape(1, 1, 2, 2))
    y = F.average_pooling_nd(x, 1, 1, 1, pad_value=None)
    expected = numpy.zeros((1, 1, 4, 4))
    expected[0, 0, 1:3, 1:3] = x.array[0, 0]
    numpy.testing.assert_array_equal(y.array, expected)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.ones_like(x.array))


def test_average_pooling_double_backward():
    x = numpy.random.RandomState(3).uniform(-1, 1, (1, 2, 4, 5))
    gy = numpy.random.RandomState(4).uniform(-1, 1, (1, 2, 2, 3))
    ggx = numpy.random.RandomState(5).uniform(-1, 1, x.shape)
    gradient_check.check_double_backward(
        lambda v: F.average_pooling_nd(v, 3, 2, 1, pad_value=None) ** 2,
        x, gy, ggx)


@pytest.mark.parametrize('call, error, match', [
    (lambda x: F.max_pooling_2d(x[0], 2), ValueError,
     'max_pooling_2d: x must have 2 spatial axes'),
    # (1 spatial axis: ndim + 2 is neither ndim * 2 nor ndim ** 2.)
    (lambda x: F.max_pooling_1d(x, 2), ValueError,
     r'max_pooling_1d: x must have 1 spatial axes after the batch and '
     r'channel axes \(ndim 3\); got shape \(1, 2, 5, 5\)'),
    (lambda x: F.max_pooling_nd(x[0, 0], 2), ValueError,
     'max_pooling_nd: x must have a batch, a channel'),
    (lambda x: F.max_pooling_2d(x, 6, cover_all=False), ValueError,
     r'max_pooling_2d: ksize \(6, 6\) is larger than the padded input'),
    (lambda x: F.average_pooling_2d(x, (2, 7)), ValueError,
     'average_pooling_2d: ksize'),
    # Longer than 5 padded by 1 each side, shorter than padded by 1.5.
    (lambda x: F.average_pooling_2d(x, 8, pad=1), ValueError,
     'average_pooling_2d: ksize'),
    # With cover_all, a window may overhang by stride - 1, not by stride.
    (lambda x: F.max_pooling_nd(x, 7, stride=2, cover_all=True), ValueError,
     'max_pooling_nd: ksize'),
    (lambda x: F.max_pooling_2d(x, (2, 2, 2)), TypeError,
     'max_pooling_2d: ksize must be an int or a sequence of 2 ints'),
    (lambda x: F.max_pooling_2d(x, 0), ValueError,
     'max_pooling_2d: ksize must be at least 1'),
    (lambda x: F.max_pooling_2d(x, 2, stride=0), ValueError,
     'max_pooling_2d: stride must be at least 1'),
    (lambda x: F.average_pooling_nd(x, 2, pad=-1), ValueError,
     'average_pooling_nd: pad must be at least 0'),
    (lambda x: F.average_pooling_nd(x, 2, pad_value=1), ValueError,
     'average_pooling_nd: pad_value must be 0 or None'),
    (lambda x: F.average_pooling_nd(x, 2, pad_value=-1), ValueError,
     'average_pooling_nd: pad_value must be 0 or None'),
    (lambda x: F.max_pooling_2d(x.astype(numpy.int32), 2),
     type_check.InvalidType, 'dtype.kind'),
    # Kinds sorting before 'f', in either pooling.
    *[(lambda x, dtype=dtype, pool=pool: pool(x.astype(dtype), 2),
       type_check.InvalidType, 'dtype.kind')
      for dtype in (numpy.bool_, numpy.complex64)
      for pool in (F.max_pooling_nd, F.average_pooling_nd)],
])
def test_argument_errors(call, error, match):
    x = numpy.zeros((1, 2, 5, 5), dtype=numpy.float32)
    with pytest.raises(error, match=match):
        call(x)


@pytest.mark.gpu
def test_gpu_matches_cpu():
    cupy = lazy_cupy.cupy_or_none()
    if cupy is None:
        pytest.skip('CuPy or a GPU is not available')
    x = _distinct((2, 3, 7, 6)).astype(numpy.float32)
    for func in (lambda v: F.max_pooling_2d(v, 3, 2, 1),
                 lambda v: F.average_pooling_nd(v, 3, 2, 1, pad_value=None),
                 lambda v: F.unpooling_2d(v, 2)):
        xc, xg = Variable(x), Variable(cupy.asarray(x))
        yc, yg = func(xc), func(xg)
        numpy.testing.assert_allclose(cupy.asnumpy(yg.array), yc.array,
                                      rtol=1e-6)
        gy = numpy.ones_like(yc.array)
        yc.grad, yg.grad = gy, cupy.asarray(gy)
        yc.backward()
        yg.backward()
        numpy.testing.assert_allclose(cupy.asnumpy(xg.grad), xc.grad,
                                      rtol=1e-6)


def test_float16_average_sums_in_float32():
    # 36 values a window: the float32 average, rounded once to float16.
    x = numpy.random.RandomState(5).uniform(0, 1, (2, 3, 6, 6)).astype(
        numpy.float16)
    y = F.average_pooling_nd(x, 6).array
    assert y.dtype == numpy.float16
    numpy.testing.assert_array_equal(
        y, F.average_pooling_nd(x.astype(numpy.float32), 6).array.astype(
            numpy.float16))


@pytest.mark.parametrize('x_shape', [(1, 2, 5), (1, 2, 5, 5, 5)])
def test_pooling_nodes_check_x_s_axes(x_shape):
    win = pooling_nd.Window((2, 2), (2, 2), (0, 0), True)
    with pytest.raises(type_check.InvalidType, match='x.ndim == 4'):
        max_pooling_nd.MaxPoolingND(win).apply(
            (numpy.zeros(x_shape, numpy.float32),))
