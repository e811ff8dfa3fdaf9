"""Image functions beyond the conformance records: Chainer's layouts,
options and argument errors."""
import numpy
import pytest

from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd.utils import type_check

from static_replays import check_replays


def test_depth2space_channel_order_matches_chainer():
    # Chainer 7.8.1: channel (i * r + j) * c + k fills offset (i, j).
    x = numpy.arange(2 * 8 * 2 * 3, dtype=numpy.float32).reshape(2, 8, 2, 3)
    y = F.depth2space(x, 2).array
    numpy.testing.assert_array_equal(
        y[0, 0], [[0, 12, 1, 13, 2, 14], [24, 36, 25, 37, 26, 38],
                  [3, 15, 4, 16, 5, 17], [27, 39, 28, 40, 29, 41]])
    numpy.testing.assert_array_equal(F.space2depth(y, 2).array, x)


def test_depth_and_space_errors():
    with pytest.raises(type_check.InvalidType, match='r'):
        F.depth2space(numpy.zeros((1, 6, 2, 2), 'f'), 2)
    # A height, or a width alone, not a multiple of r.
    for shape in ((1, 1, 3, 4), (1, 1, 4, 3)):
        with pytest.raises(type_check.InvalidType, match=r'% r == 0'):
            F.space2depth(numpy.zeros(shape, 'f'), 2)
    with pytest.raises(ValueError, match='depth2space: r'):
        F.depth2space(numpy.zeros((1, 4, 2, 2), 'f'), 0)
    with pytest.raises(ValueError, match='space2depth: r'):
        F.space2depth(numpy.zeros((1, 1, 2, 2), 'f'), 0)
    # Three axes or five.
    for func in (F.space2depth, F.depth2space):
        for shape in ((4, 2, 2), (1, 4, 2, 2, 1)):
            with pytest.raises(type_check.InvalidType, match='X.ndim'):
                func(numpy.zeros(shape, 'f'), 2)


def test_im2col_layout_matches_chainer():
    x = numpy.arange(2 * 16, dtype=numpy.float32).reshape(1, 2, 4, 4)
    y = F.im2col(x, 2)
    assert y.shape == (1, 8, 3, 3)
    numpy.testing.assert_array_equal(y.array[0, :, 0, 0],
                                     [0, 1, 4, 5, 16, 17, 20, 21])
    assert F.im2col(x[:, :1], 3, stride=2, pad=1,
                    cover_all=True).shape == (1, 9, 3, 3)
    # cover_all is off by default.
    assert F.im2col(x[:, :1, :3, :3], 2, stride=2).shape == (1, 4, 1, 1)


def test_im2col_errors():
    x = numpy.zeros((1, 1, 3, 3), 'f')
    with pytest.raises(ValueError, match='im2col: the dilated kernel'):
        F.im2col(x, 3, dilate=2)
    with pytest.raises(ValueError, match='im2col: stride'):
        F.im2col(x, 2, stride=0)
    with pytest.raises(ValueError, match='im2col: pad'):
        F.im2col(x, 2, pad=-1)
    # A kernel one or two longer than either side of x.
    for ksize in ((4, 1), (1, 4), (5, 1), (1, 5)):
        with pytest.raises(ValueError, match='im2col: the dilated kernel'):
            F.im2col(x, ksize)
    for ksize in ((1, 2, 3), (), 0):
        with pytest.raises(ValueError, match='im2col: ksize'):
            F.im2col(x, ksize)
    with pytest.raises(ValueError, match='im2col: dilate'):
        F.im2col(x, 2, dilate=0)
    for images in (x[0], x[None]):
        with pytest.raises(type_check.InvalidType, match='x.ndim'):
            F.im2col(images, 2)


def test_resize_images_modes_match_chainer():
    x = numpy.arange(12, dtype=numpy.float32).reshape(1, 1, 3, 4)
    numpy.testing.assert_allclose(
        F.resize_images(x, (2, 3)).array[0, 0], [[0, 1.5, 3], [8, 9.5, 11]])
    numpy.testing.assert_allclose(
        F.resize_images(x, (2, 3), align_corners=False).array[0, 0],
        [[7 / 6, 2.5, 23 / 6], [43 / 6, 8.5, 59 / 6]], rtol=1e-6)
    numpy.testing.assert_array_equal(
        F.resize_images(x, (2, 3), mode='nearest').array[0, 0],
        [[0, 1, 2], [4, 5, 6]])
    assert F.resize_images(x, (1, 1), align_corners=False).array == 5.5


def test_resize_images_errors():
    x = numpy.zeros((1, 1, 3, 4), 'f')
    with pytest.raises(ValueError, match="resize_images: mode"):
        F.resize_images(x, (2, 2), mode='bicubic')
    with pytest.raises(ValueError, match='resize_images: output_shape'):
        F.resize_images(x, (0, 2))
    for shape in ((2, 2, 2), (2,)):
        with pytest.raises(ValueError, match='output_shape must be a pair'):
            F.resize_images(x, shape)
    with pytest.raises(TypeError):
        F.resize_images(x, (2, 2), 'nearest')  # mode is keyword-only
    for images in (x[0], x[None]):
        with pytest.raises(type_check.InvalidType, match='x.ndim'):
            F.resize_images(images, (2, 2))
    for dtype in (numpy.int32, bool):
        with pytest.raises(type_check.InvalidType, match='x.dtype.kind'):
            F.resize_images(x.astype(dtype), (2, 2))


def test_spatial_transformer_identity_reproduces_image():
    x = numpy.random.RandomState(0).randn(2, 3, 4, 5).astype(numpy.float32)
    theta = numpy.tile(numpy.array([[1, 0, 0], [0, 1, 0]], numpy.float32),
                       (2, 1, 1))
    grid = F.spatial_transformer_grid(theta, (4, 5))
    numpy.testing.assert_allclose(
        F.spatial_transformer_sampler(x, grid).array, x, atol=1e-6)


@pytest.mark.parametrize('point', [(5, 0), (-5, 0), (0, 5), (0, -5),
                                   (-2.5, 0), (0, -2.5)])
def test_spatial_transformer_samples_zero_outside(point):
    x = numpy.ones((1, 1, 3, 3), numpy.float32)
    grid = Variable(numpy.array(point, numpy.float32).reshape(1, 2, 1, 1))
    y = F.sum(F.spatial_transformer_sampler(x, grid))
    assert y.array.item() == 0
    y.backward()
    assert not grid.grad.any()


def test_spatial_transformer_errors():
    x = numpy.zeros((1, 1, 3, 3), 'f')
    with pytest.raises(ValueError, match='use_cudnn'):
        F.spatial_transformer_grid(numpy.zeros((1, 2, 3), 'f'), (2, 2),
                                   use_cudnn='never')
    with pytest.raises(TypeError, match='unexpected keyword'):
        F.spatial_transformer_sampler(x, numpy.zeros((1, 2, 2, 2), 'f'),
                                      mode='bilinear')
    for theta in (numpy.zeros((1, 3, 3), 'f'), numpy.zeros((1, 2, 2), 'f'),
                  numpy.zeros((1, 2, 3), 'i'), numpy.zeros((1, 2, 3), 'c8')):
        with pytest.raises(type_check.InvalidType, match='theta'):
            F.spatial_transformer_grid(theta, (2, 2))
    with pytest.raises(ValueError, match='output_shape must be >= 1'):
        F.spatial_transformer_grid(numpy.zeros((1, 2, 3), 'f'), (0, 2))
    with pytest.raises(type_check.InvalidType, match='grid'):
        F.spatial_transformer_sampler(x, numpy.zeros((1, 3, 2, 2), 'f'))
    with pytest.raises(type_check.InvalidType, match='grid'):
        F.spatial_transformer_sampler(x, numpy.zeros((2, 2, 2, 2), 'f'))
    # x of a larger batch than grid's.
    with pytest.raises(type_check.InvalidType, match='grid'):
        F.spatial_transformer_sampler(numpy.zeros((2, 1, 3, 3), 'f'),
                                      numpy.zeros((1, 2, 2, 2), 'f'))
    # x and grid of three or five axes, a grid of one coordinate, dtypes
    # not one (each way), int and bool arrays.
    for x_bad, grid in (
            (x[0], numpy.zeros((1, 2, 2, 2), 'f')),
            (x[None], numpy.zeros((1, 2, 2, 2), 'f')),
            (x, numpy.zeros((1, 2, 2), 'f')),
            (x, numpy.zeros((1, 2, 2, 2, 1), 'f')),
            (x, numpy.zeros((1, 1, 2, 2), 'f')),
            (x, numpy.zeros((1, 2, 2, 2), 'd')),
            (x.astype('d'), numpy.zeros((1, 2, 2, 2), 'f')),
            (x.astype('i'), numpy.zeros((1, 2, 2, 2), 'i')),
            (x.astype(bool), numpy.zeros((1, 2, 2, 2), bool))):
        with pytest.raises(type_check.InvalidType, match='one float dtype'):
            F.spatial_transformer_sampler(x_bad, grid)


def test_spatial_transformer_grid_gradient_reaches_theta():
    theta = Variable(numpy.zeros((1, 2, 3), numpy.float32))
    F.sum(F.spatial_transformer_grid(theta, (2, 2))).backward()
    numpy.testing.assert_allclose(theta.grad,
                                  [[[0, 0, 4], [0, 0, 4]]], atol=1e-6)


def test_spatial_transformer_finds_each_points_cell_on_replays():
    x = (numpy.arange(9, dtype=numpy.float32) ** 2).reshape(1, 1, 3, 3)
    # Rows: x coordinates, then y coordinates of two points. The points
    # lie in the same pixel cells in the two recordings; in the replay in
    # others, and the second one right of the padded image.
    grids = [[[0.1, -0.6], [0.3, 0.5]], [[0.2, -0.7], [0.4, 0.6]],
             [[-0.4, 2.5], [0.8, -0.2]]]
    check_replays(F.spatial_transformer_sampler, [
        (x, numpy.array(grid, numpy.float32).reshape(1, 2, 1, 2))
        for grid in grids])
