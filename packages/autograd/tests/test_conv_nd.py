"""Chainer's ``utils.conv_nd`` entry points."""
import numpy
import pytest

from kusari.autograd.utils import conv_nd


def test_as_tuple():
    assert conv_nd.as_tuple(2, 3) == (2, 2, 2)
    assert conv_nd.as_tuple([1, 2], 2) == (1, 2)
    with pytest.raises(AssertionError, match='2 values'):
        conv_nd.as_tuple((1,), 2)


def test_im2col_nd_and_col2im_nd_are_adjoint():
    img = numpy.random.RandomState(0).uniform(-1, 1, (2, 3, 5, 4)) \
        .astype(numpy.float32)
    col = conv_nd.im2col_nd(img, (2, 3), (1, 1), (1, 0))
    outs = tuple(conv_nd.get_conv_outsize(d, k, s, p) for d, k, s, p in
                 zip((5, 4), (2, 3), (1, 1), (1, 0)))
    assert col.shape == (2, 3, 2, 3) + outs
    # <im2col(x), c> == <x, col2im(c)>
    c = numpy.random.RandomState(1).uniform(-1, 1, col.shape) \
        .astype(numpy.float32)
    back = conv_nd.col2im_nd(c, (1, 1), (1, 0), (5, 4))
    numpy.testing.assert_allclose((col * c).sum(), (img * back).sum(),
                                  rtol=1e-5)


def test_wrong_number_of_spatial_axes():
    img = numpy.zeros((2, 3, 4, 3), numpy.float32)
    with pytest.raises(AssertionError, match='ksize'):
        conv_nd.im2col_nd_cpu(img, (2,), (1, 1), (0, 0))
    col = numpy.zeros((2, 3, 2, 3, 2), numpy.float32)
    with pytest.raises(AssertionError, match='col.shape'):
        conv_nd.col2im_nd_cpu(col, (1, 1), (0, 0), (4, 3))
