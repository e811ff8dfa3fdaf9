"""ROI poolings: values checked against Chainer 7.8.1 (empty bins
included), gradients of every order, and argument errors."""
import numpy
import pytest

from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd import gradient_check

from static_replays import check_replays

X = (numpy.arange(20, dtype=numpy.float32).reshape(1, 1, 4, 5) * 7 % 20)
# The second region lies mostly past the image: three of its bins are
# empty.
ROIS = numpy.array([[0.4, 0.6, 3.2, 4.1], [2.6, 3.3, 9.0, 9.0]],
                   dtype=numpy.float32)
INDICES = numpy.array([0, 0], dtype=numpy.int32)
INF = numpy.inf

# Outputs of Chainer 7.8.1 for outsize 2 and spatial_scale 1.
CHAINER = {
    'roi_max_pooling_2d': [[[14, 16], [17, 16]], [[13, -INF], [-INF, -INF]]],
    'roi_average_pooling_2d': [[[8, 10], [8, 10]], [[9.5, 0], [0, 0]]],
    'roi_max_align_2d': [[[9.6375, 12.2625], [16.4, 14.8875]],
                         [[13, -INF], [-INF, -INF]]],
    'roi_average_align_2d': [[[7.1875, 10.534375], [13.075, 11.1375]],
                             [[4.070833, 0], [0, 0]]],
}


# The names written out (not sorted(CHAINER)): the mutation session runs
# the tests whose code or decorators name a function.
@pytest.mark.parametrize('name', [
    'roi_average_align_2d', 'roi_average_pooling_2d', 'roi_max_align_2d',
    'roi_max_pooling_2d'])
def test_values_match_chainer(name):
    y = getattr(F, name)(X, ROIS, INDICES, 2, 1.0)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array[:, 0], CHAINER[name], rtol=1e-5)


def test_roi_pooling_2d_matches_chainer():
    rois = numpy.array([[0, 0.6, 0.4, 4.1, 3.2]], dtype=numpy.float32)
    y = F.roi_pooling_2d(X, rois, 2, 2, 1.0)
    numpy.testing.assert_array_equal(y.array[0, 0], [[14, 16], [19, 18]])


# Total gradient of the second region for gy = 1: only its first bin
# reads the image, and in average align 4 of its 12 samples lie in it.
@pytest.mark.parametrize('name, total', [
    ('roi_max_pooling_2d', 1.0), ('roi_average_pooling_2d', 1.0),
    ('roi_max_align_2d', 1.0), ('roi_average_align_2d', 1 / 3)])
def test_no_gradient_from_empty_bins(name, total):
    x = Variable(X.copy())
    y = getattr(F, name)(x, ROIS[1:], INDICES[1:], 2, 1.0)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert numpy.isfinite(x.grad).all()
    assert x.grad.sum() == pytest.approx(total, rel=1e-6)


# A region wholly past the image: every bin is empty, no term at all is
# read (the empty value of each pooling, no gradient).
@pytest.mark.parametrize('call, empty', [
    (lambda x, box: F.roi_max_pooling_2d(x, box, INDICES[:1], 2, 1.0),
     -INF),
    (lambda x, box: F.roi_average_pooling_2d(x, box, INDICES[:1], 2, 1.0),
     0.0),
    (lambda x, box: F.roi_pooling_2d(
        x, numpy.concatenate([[[0]], box[:, [1, 0, 3, 2]]], axis=1), 2, 2,
        1.0), 0.0)])
def test_region_wholly_past_the_image(call, empty):
    x = Variable(X.copy())
    box = numpy.array([[5.2, 6.3, 9.0, 9.0]], dtype=numpy.float32)
    y = call(x, box)
    numpy.testing.assert_array_equal(y.array, numpy.full((1, 1, 2, 2),
                                                         empty))
    y.grad = numpy.ones_like(y.array)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.zeros_like(X))


def test_average_align_gradients_of_every_order():
    x = numpy.random.RandomState(0).uniform(-1, 1, (2, 2, 5, 6))
    rois = numpy.array([[0.3, 1.2, 4.1, 5.3], [-0.7, -0.2, 2.2, 7.9]])
    indices = numpy.array([1, 0], dtype=numpy.int32)
    gy = numpy.random.RandomState(1).uniform(-1, 1, (2, 2, 2, 3))
    gradient_check.check_double_backward(
        lambda v: F.roi_average_align_2d(v, rois, indices, (2, 3), 0.9,
                                         sampling_ratio=2) ** 2,
        x, gy, numpy.random.RandomState(2).uniform(-1, 1, x.shape))


def test_regions_are_not_differentiated():
    rois = Variable(ROIS.copy())
    x = Variable(X.copy())
    y = F.roi_average_align_2d(x, rois, INDICES, 2, 1.0)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert rois.grad is None and x.grad is not None


@pytest.mark.parametrize('name', [
    'roi_average_align_2d', 'roi_average_pooling_2d', 'roi_max_align_2d',
    'roi_max_pooling_2d'])
@pytest.mark.parametrize('args, error, match', [
    ((X[0], ROIS, INDICES, 2, 1.0), ValueError, r'x must be a float array'),
    # x of five axes, of ints, of complex numbers (sorting before 'f').
    ((X[None], ROIS, INDICES, 2, 1.0), ValueError, r'x must be a float array'),
    ((X.astype(numpy.int32), ROIS, INDICES, 2, 1.0), ValueError,
     r'x must be a float array'),
    ((X.astype(numpy.complex64), ROIS, INDICES, 2, 1.0), ValueError,
     r'x must be a float array'),
    # rois of five columns, of one axis or of three.
    ((X, numpy.ones((2, 5), numpy.float32), INDICES, 2, 1.0), ValueError,
     r'rois must be a float array \(R, 4\)'),
    ((X, ROIS.ravel(), INDICES, 2, 1.0), ValueError,
     r'rois must be a float array \(R, 4\)'),
    ((X, ROIS[:, :, None], INDICES, 2, 1.0), ValueError,
     r'rois must be a float array \(R, 4\)'),
    ((X, ROIS[:, :3], INDICES, 2, 1.0), ValueError,
     r'rois must be a float array \(R, 4\)'),
    # (complex and bool kinds sort before 'f', int after it.)
    ((X, ROIS.astype(numpy.complex64), INDICES, 2, 1.0), ValueError,
     r'rois must be a float array \(R, 4\)'),
    ((X, ROIS.astype(numpy.int32), INDICES, 2, 1.0), ValueError,
     r'rois must be a float array \(R, 4\)'),
    ((X, ROIS, INDICES[:1], 2, 1.0), ValueError,
     r'roi_indices must be an int array \(2,\)'),
    ((X, ROIS[:1], INDICES[0], 2, 1.0), ValueError,
     r'roi_indices must be an int array \(1,\)'),
    ((X, ROIS, INDICES + 1, 2, 1.0), ValueError,
     r'every roi index must be an image of x, in \[0, 1\)'),
    ((X, ROIS, INDICES - 1, 2, 1.0), ValueError,
     r'every roi index must be an image of x, in \[0, 1\)'),
    ((X, ROIS, INDICES.astype(numpy.float32), 2, 1.0), ValueError,
     r'roi_indices must be an int array \(2,\)'),
    ((X, ROIS, INDICES[:, None], 2, 1.0), ValueError,
     r'roi_indices must be an int array \(2,\)'),
    # More indices than regions.
    ((X, ROIS, numpy.zeros(3, numpy.int32), 2, 1.0), ValueError,
     r'roi_indices must be an int array \(2,\)'),
    ((X, ROIS * numpy.nan, INDICES, 2, 1.0), ValueError,
     'rois must be finite'),
    ((X, ROIS, INDICES, 0, 1.0), ValueError, 'outsize must be at least 1'),
    ((X, ROIS, INDICES, 2, 0.0), ValueError,
     'spatial_scale must be a positive number'),
    ((X, ROIS, INDICES, 2, -1.0), ValueError,
     'spatial_scale must be a positive number'),
])
def test_argument_errors(name, args, error, match):
    with pytest.raises(error, match=f'{name}: {match}'):
        getattr(F, name)(*args)


@pytest.mark.parametrize('name', ['roi_max_align_2d',
                                  'roi_average_align_2d'])
def test_sampling_ratio_errors(name):
    with pytest.raises(ValueError, match=f'{name}: sampling_ratio must be '
                                         f'at least 1'):
        getattr(F, name)(X, ROIS, INDICES, 2, 1.0, sampling_ratio=0)


def test_roi_pooling_2d_argument_errors():
    with pytest.raises(ValueError, match=r'roi_pooling_2d: rois must be a '
                                         r'float array \(R, 5\)'):
        F.roi_pooling_2d(X, ROIS, 2, 2, 1.0)
    rois = numpy.array([[3, 0.6, 0.4, 4.1, 3.2]], dtype=numpy.float32)
    with pytest.raises(ValueError, match='roi_pooling_2d: every roi index'):
        F.roi_pooling_2d(X, rois, 2, 2, 1.0)


@pytest.mark.parametrize('name', ['roi_max_align_2d',
                                  'roi_average_align_2d'])
def test_align_sample_on_the_last_pixel_reads_it_alone(name):
    """A sample past the centre of the last row and column reads that
    pixel alone, as in Chainer: the pixels before it, here infinite, add
    nothing (not even 0 * inf)."""
    x = numpy.full((1, 1, 4, 5), 3, numpy.float32)
    x[..., 2, :] = x[..., :, 3] = numpy.inf
    x[..., 3, 4] = 7
    rois = numpy.array([[3.0, 4.0, 4.0, 5.0]], numpy.float32)
    y = getattr(F, name)(x, rois, INDICES[:1], 1, 1.0, sampling_ratio=1)
    numpy.testing.assert_array_equal(y.array, [[[[7]]]])


@pytest.mark.parametrize('name', ['roi_max_align_2d',
                                  'roi_average_align_2d'])
def test_align_sample_exactly_one_pixel_out_reads_the_edge(name):
    """A sample at -1 (one pixel before the image) still counts and reads
    the first row or column, as in Chainer 7.8.1 (which gives these
    values)."""
    rois = numpy.array([[-1.5, 1.5, -0.5, 2.5], [1.5, -1.5, 2.5, -0.5]],
                       numpy.float32)
    y = getattr(F, name)(X, rois, INDICES, 1, 1.0, sampling_ratio=1)
    numpy.testing.assert_array_equal(y.array.ravel(), [14, 10])


def _apart(rois, indices):
    """Regions ``(R, 4)`` and their images as they are."""
    return rois, indices


def _boxes(rois, indices):
    """Regions ``(R, 4)`` and their images as roi_pooling_2d's ``(R, 5)``
    of (image index, x_min, y_min, x_max, y_max)."""
    return numpy.concatenate([indices[:, None], rois[:, [1, 0, 3, 2]]],
                             axis=1).astype(numpy.float32),


# Two images: the regions and the images they read move in the replay.
X2 = numpy.concatenate([X, X[..., ::-1] * 0.5])
MOVED = (numpy.array([[1.3, 0.2, 3.8, 3.1], [0.1, 2.2, 2.4, 4.9]],
                     numpy.float32), numpy.array([1, 0], numpy.int32))


@pytest.mark.parametrize('pooling, regions', [
    (lambda x, r, i: F.roi_max_pooling_2d(x, r, i, 2, 1.0), _apart),
    (lambda x, r, i: F.roi_average_pooling_2d(x, r, i, 2, 1.0), _apart),
    (lambda x, r, i: F.roi_max_align_2d(x, r, i, 2, 1.0), _apart),
    (lambda x, r, i: F.roi_average_align_2d(x, r, i, (2, 3), 1.0,
                                            sampling_ratio=2), _apart),
    (lambda x, r: F.roi_pooling_2d(x, r, 2, 2, 1.0), _boxes)])
def test_replays_pool_their_own_regions_and_maxima(pooling, regions):
    """Two recordings that agree on the regions and on where the maxima
    are, then a replay with other regions and a shuffled x: the replay
    reads its own bins and maxima, as define-by-run does."""
    shuffled = numpy.random.RandomState(0).permutation(X2.ravel())
    calls = [(X2, (ROIS, INDICES)), (X2 + 1, (ROIS, INDICES)),
             (shuffled.reshape(X2.shape), MOVED)]
    check_replays(pooling, [(x,) + regions(*boxes) for x, boxes in calls])
