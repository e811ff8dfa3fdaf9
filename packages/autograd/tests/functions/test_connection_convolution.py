"""Convolutions against a plain NumPy loop, option handling, errors."""
import itertools
import re

import numpy
import pytest

from kusari.autograd import functions as F
from kusari.autograd.functions.connection import _geometry
from kusari.autograd.functions.connection import convolution_nd
from kusari.autograd.functions.connection import deconvolution_nd
from kusari.autograd.variable import Variable
from kusari.autograd.utils import conv
from kusari.autograd.utils import conv_nd
from kusari.autograd.utils import type_check


def _pair(v):
    return (v, v) if isinstance(v, int) else v


def _loop_convolution_2d(x, W, b, stride, pad, cover_all, dilate, groups):
    """Pixel by pixel, in float64."""
    n, c, h, w = x.shape
    out_c, cg, kh, kw = W.shape
    (sy, sx), (ph, pw), (dy, dx) = stride, pad, dilate
    out_h = conv.get_conv_outsize(h, kh, sy, ph, cover_all, dy)
    out_w = conv.get_conv_outsize(w, kw, sx, pw, cover_all, dx)
    og = out_c // groups
    y = numpy.zeros((n, out_c, out_h, out_w))
    for m, o, i, j in itertools.product(range(n), range(out_c),
                                        range(out_h), range(out_w)):
        g = o // og
        total = b[o]
        for ci, p, q in itertools.product(range(cg), range(kh), range(kw)):
            yy, xx = i * sy - ph + p * dy, j * sx - pw + q * dx
            if 0 <= yy < h and 0 <= xx < w:
                total += W[o, ci, p, q] * x[m, g * cg + ci, yy, xx]
        y[m, o, i, j] = total
    return y


@pytest.mark.parametrize('stride,pad,cover_all,dilate,groups', list(
    itertools.product([1, (2, 3)], [0, (1, 2)], [False, True], [1, (2, 1)],
                      [1, 2])))
def test_convolution_2d_matches_loop(stride, pad, cover_all, dilate,
                                     groups):
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((2, 4, 7, 8)).astype(numpy.float32)
    W = rng.standard_normal((6, 4 // groups, 3, 2)).astype(numpy.float32)
    b = rng.standard_normal(6).astype(numpy.float32)
    y = F.convolution_2d(x, W, b, stride, pad, cover_all, dilate=dilate,
                         groups=groups)
    expected = _loop_convolution_2d(x, W, b, _pair(stride), _pair(pad),
                                    cover_all, _pair(dilate), groups)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize('batch_last', [False, True])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float64])
def test_one_filter_per_group_matches_the_dense_convolution(
        monkeypatch, dtype, batch_last):
    # Depthwise (one filter per group) runs as einsum, not matmul, in the
    # batch-first layout: the same values and gradients as the dense
    # convolution whose filter is zero off the diagonal of (output, input)
    # channels.
    monkeypatch.setattr(_geometry, 'batch_last',
                        lambda *args: batch_last)
    rng = numpy.random.default_rng(6)
    x = rng.uniform(-1, 1, (3, 4, 7, 6))
    W = rng.uniform(-1, 1, (4, 1, 3, 3))
    dense = numpy.zeros((4, 4, 3, 3))
    dense[range(4), range(4)] = W[:, 0]
    gy = rng.uniform(-1, 1, (3, 4, 4, 4))
    options = dict(stride=(2, 1), pad=1, dilate=(1, 2))
    results = []
    for filter_, groups in ((W, 4), (dense, 1)):
        xv = Variable(x.astype(dtype))
        Wv = Variable(filter_.astype(dtype))
        y = F.convolution_2d(xv, Wv, groups=groups, **options)
        y.grad = gy.astype(dtype)
        y.backward()
        assert y.dtype == Wv.grad.dtype == dtype
        results.append((y.array, xv.grad, Wv.grad))
    (y, gx, gW), (y_dense, gx_dense, gW_dense) = results
    tolerance = 0.02 if dtype == numpy.float16 else 1e-12
    for actual, expected in ((y, y_dense), (gx, gx_dense),
                             (gW[:, 0], gW_dense[range(4), range(4)])):
        numpy.testing.assert_allclose(actual, expected, rtol=tolerance,
                                      atol=tolerance)


def test_deconvolution_is_the_transpose_of_convolution():
    rng = numpy.random.default_rng(1)
    x = rng.standard_normal((2, 4, 7, 8))
    W = rng.standard_normal((6, 2, 3, 2))
    options = dict(stride=(2, 3), pad=1, dilate=(1, 2), groups=2)
    y = F.convolution_2d(x, W, **options).array
    gy = rng.standard_normal(y.shape)
    gx = F.deconvolution_2d(gy, W, outsize=(7, 8), **options).array
    numpy.testing.assert_allclose((y * gy).sum(), (x * gx).sum())


@pytest.mark.parametrize('reversed_filter', [False, True])
@pytest.mark.parametrize('ndim,pad,dilate,groups', [
    (2, 1, 1, 1), (2, (0, 2), (1, 2), 2), (2, (3, 1), 1, 1), (1, 2, 2, 3),
    (3, (1, 0, 2), (2, 1, 1), 1)])
def test_stride_1_deconvolution_is_the_transpose_of_convolution(
        monkeypatch, reversed_filter, ndim, pad, dilate, groups):
    # Stride 1 runs as a convolution with the reversed filter where that
    # pays (a pad over (k - 1) d, as (3, 1) is here, falls back to
    # col2im), else as col2im: either is the convolution's adjoint.
    monkeypatch.setattr(_geometry, 'reversed_filter_pays',
                        lambda *args: reversed_filter)
    rng = numpy.random.default_rng(5)
    x = rng.standard_normal((2, 3 * groups) + (7, 6, 5)[:ndim])
    W = rng.standard_normal((2 * groups, 3) + (3, 2, 3)[:ndim])
    options = dict(stride=1, pad=pad, dilate=dilate, groups=groups)
    y = F.convolution_nd(x, W, **options).array
    gy = rng.standard_normal(y.shape)
    gx = F.deconvolution_nd(gy, W, outsize=x.shape[2:], **options).array
    assert gx.shape == x.shape
    numpy.testing.assert_allclose((y * gy).sum(), (x * gx).sum())
    gx_float32 = F.deconvolution_nd(
        gy.astype(numpy.float32), W.astype(numpy.float32), **options).array
    assert gx_float32.dtype == numpy.float32
    numpy.testing.assert_allclose(gx_float32, gx, rtol=1e-4, atol=1e-4)


def test_reversed_filter_pays_where_the_patches_are_no_larger():
    # A same-padded 3x3 layer of 32 channels: the convolution form; a
    # 5x5 one without padding from 12x12 to 8x8, 20 to 50 channels
    # (LeNet's second), whose input gradient would copy a padded 16x16
    # gradient for every 12x12 output: the col2im form.
    assert _geometry.reversed_filter_pays(32, 32, 1, 1024, 1024)
    assert not _geometry.reversed_filter_pays(50, 20, 1, 64, 144)


def _conv_and_grads(x, W, gy, options):
    xv, Wv = Variable(x), Variable(W)
    y = F.convolution_2d(xv, Wv, **options)
    y.grad = gy
    y.backward()
    d = F.deconvolution_2d(y.array, W, outsize=x.shape[2:], **options)
    return y.array, xv.grad, Wv.grad, d.array


@pytest.mark.parametrize('groups', [1, 2])
def test_both_patch_layouts_agree(monkeypatch, groups):
    # The batch axis first or last in the patches (im2col, col2im, the
    # filter gradient and the deconvolution): the same sums, in another
    # order.
    rng = numpy.random.default_rng(4)
    x = rng.standard_normal((3, 4, 9, 7))
    W = rng.standard_normal((6, 4 // groups, 3, 2))
    options = dict(stride=(2, 1), pad=(1, 0), dilate=(1, 2), groups=groups)
    gy = rng.standard_normal(
        F.convolution_2d(x, W, **options).shape)
    results = {}
    for layout in (False, True):
        monkeypatch.setattr(_geometry, 'batch_last',
                            lambda *args, layout=layout: layout)
        results[layout] = _conv_and_grads(x, W, gy, options)
    for first, last in zip(results[False], results[True]):
        numpy.testing.assert_allclose(first, last, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize('func', [F.convolution_2d, F.convolution_nd])
def test_float16_keeps_dtype_and_precision(func):
    # The sums of 8 * 3 * 3 products in float32, rounded once to float16.
    rng = numpy.random.default_rng(2)
    x = rng.uniform(-1, 1, (1, 8, 5, 5)).astype(numpy.float16)
    W = rng.uniform(-1, 1, (3, 8, 3, 3)).astype(numpy.float16)
    y = func(x, W)
    assert y.dtype == numpy.float16
    expected = func(x.astype(numpy.float32), W.astype(numpy.float32)).array
    numpy.testing.assert_array_equal(y.array, expected.astype(numpy.float16))


def test_conv_outsize_helpers():
    assert conv.get_conv_outsize(7, 3, 2, 1) == 4
    assert conv.get_conv_outsize(8, 3, 2, 0, cover_all=True) == 4
    assert conv.get_conv_outsize(8, 3, 2, 0) == 3
    assert conv.get_conv_outsize(9, 3, 1, 0, d=3) == 3
    assert conv.get_deconv_outsize(4, 3, 2, 1) == 7
    assert conv.get_deconv_outsize(4, 3, 2, 0, cover_all=True) == 8


def test_im2col_col2im_adjoint_nd():
    rng = numpy.random.default_rng(3)
    img = rng.standard_normal((2, 3, 5, 4, 6))
    args = ((2, 3, 2), (2, 1, 3), (1, 0, 1))
    col = conv_nd.im2col_nd_cpu(img, *args, cover_all=True, dilate=(1, 2, 1))
    g = rng.standard_normal(col.shape)
    back = conv_nd.col2im_nd_cpu(g, args[1], args[2], img.shape[2:],
                                 dilate=(1, 2, 1))
    numpy.testing.assert_allclose((col * g).sum(), (img * back).sum())


def test_im2col_pads_with_pval():
    img = numpy.ones((1, 1, 2, 2))
    col = conv.im2col_cpu(img, 3, 3, 1, 1, 1, 1, pval=-5)
    assert col.shape == (1, 1, 3, 3, 2, 2)
    assert col[0, 0, 0, 0, 0, 0] == -5 and col[0, 0, 1, 1, 0, 0] == 1


# The 2-d function and the N-d one it shares its checks with.
_CONVOLUTIONS = pytest.mark.parametrize('func,node', [
    (F.convolution_2d, 'Convolution2DFunction'),
    (F.convolution_nd, 'ConvolutionND')])


@_CONVOLUTIONS
@pytest.mark.parametrize('x_shape,w_shape,kwargs,needle', [
    ((1, 3, 5, 5), (2, 4, 3, 3), {}, 'x.shape[1] == W.shape[1]'),
    ((1, 4, 5, 5), (2, 3, 3, 3), {}, 'x.shape[1] == W.shape[1]'),
    ((1, 3, 2, 5), (2, 3, 3, 3), {}, 'x.shape[2]'),
    ((1, 3, 5, 5), (2, 3, 3, 3, 1), {}, 'W.ndim == 4'),
    ((1, 3, 5, 5), (2, 3, 3), {}, 'W.ndim == 4'),
    ((1, 4, 5, 5), (3, 2, 3, 3), {'groups': 2}, 'W.shape[0] % 2 == 0'),
])
def test_convolution_bad_shapes(func, node, x_shape, w_shape, kwargs,
                                needle):
    x = numpy.zeros(x_shape, numpy.float32)
    W = numpy.zeros(w_shape, numpy.float32)
    with pytest.raises(type_check.InvalidType) as info:
        func(Variable(x), W, **kwargs)
    assert node in str(info.value)
    assert needle in str(info.value)


def test_convolution_2d_wants_x_of_two_spatial_axes():
    x = Variable(numpy.zeros((1, 3, 5), numpy.float32))
    W = numpy.zeros((2, 3, 3, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='x.ndim == 4'):
        F.convolution_2d(x, W)


@_CONVOLUTIONS
@pytest.mark.parametrize('x_dtype,w_dtype', [
    # Integer and unsigned kinds sort after 'f', bool and complex before.
    *[('f4', w_dtype) for w_dtype in ('i4', 'u1', 'b', 'c8')],
    *[(x_dtype, 'f4') for x_dtype in ('i4', 'b', 'c8')]])
def test_convolution_wants_float_x_and_filter(func, node, x_dtype, w_dtype):
    x = Variable(numpy.zeros((1, 3, 5, 5), x_dtype))
    W = numpy.zeros((2, 3, 3, 3), w_dtype)
    name = 'W' if x_dtype == 'f4' else 'x'
    with pytest.raises(type_check.InvalidType,
                       match=f'{name}.dtype.kind == f'):
        func(x, W)


@pytest.mark.parametrize('func,w_shape', [
    (F.convolution_2d, (2, 3, 3, 3)), (F.convolution_nd, (2, 3, 3, 3)),
    (F.deconvolution_2d, (3, 2, 3, 3)), (F.deconvolution_nd, (3, 2, 3, 3))])
@pytest.mark.parametrize('b_length', [1, 3])
def test_bias_of_another_length_than_the_outputs_is_refused(func, w_shape,
                                                            b_length):
    x = Variable(numpy.zeros((1, 3, 5, 5), numpy.float32))
    W = numpy.zeros(w_shape, numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r'b.shape\[0\] == '):
        func(x, W, numpy.zeros(b_length, numpy.float32))


@pytest.mark.parametrize('func', [F.convolution_2d, F.convolution_nd])
@pytest.mark.parametrize('kwargs,error', [
    ({'stride': 0}, ValueError), ({'pad': -1}, ValueError),
    ({'stride': (1, 2, 3)}, TypeError), ({'groups': 0}, ValueError),
    ({'dilate': 1.5}, TypeError), ({'dilate': 0}, ValueError)])
def test_convolution_bad_options(func, kwargs, error):
    x = numpy.zeros((1, 2, 4, 4), numpy.float32)
    W = numpy.zeros((2, 2, 3, 3), numpy.float32)
    with pytest.raises(error, match=f'{func.__name__}: '):
        func(x, W, **kwargs)


def test_deconvolution_bad_outsize():
    from kusari.autograd.variable import Variable
    x = Variable(numpy.zeros((1, 2, 3, 3), numpy.float32))
    W = numpy.zeros((2, 1, 3, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='Deconvolution2D'):
        F.deconvolution_2d(x, W, stride=2, outsize=(20, 7))


_CONVOLUTION_DEFAULTS = dict(stride=1, pad=0, cover_all=False, dilate=1,
                             groups=1)
_DECONVOLUTION_DEFAULTS = dict(stride=1, pad=0, outsize=None, dilate=1,
                               groups=1)


@pytest.mark.parametrize('given', [{}, {'stride': 2}])
@pytest.mark.parametrize('func,ndim,documented', [
    (F.convolution_1d, 1, _CONVOLUTION_DEFAULTS),
    (F.convolution_2d, 2, _CONVOLUTION_DEFAULTS),
    (F.convolution_3d, 3, _CONVOLUTION_DEFAULTS),
    (F.convolution_nd, 2, _CONVOLUTION_DEFAULTS),
    (F.dilated_convolution_2d, 2,
     dict(stride=1, pad=0, dilate=1, cover_all=False)),
    (F.depthwise_convolution_2d, 2, dict(stride=1, pad=0)),
    (F.deconvolution_1d, 1, _DECONVOLUTION_DEFAULTS),
    (F.deconvolution_2d, 2, _DECONVOLUTION_DEFAULTS),
    (F.deconvolution_3d, 3, _DECONVOLUTION_DEFAULTS),
    (F.deconvolution_nd, 2, _DECONVOLUTION_DEFAULTS)])
def test_options_left_out_take_the_documented_defaults(func, ndim,
                                                       documented, given):
    """Lengths of 4 with a kernel of 3: with stride 2, cover_all adds an
    output position."""
    rng = numpy.random.default_rng(ndim)
    x = rng.standard_normal((2, 2) + (4,) * ndim)
    # A convolution's W is (out, c, k...), a deconvolution's (c, out, k...).
    deconvolution = 'outsize' in documented
    W = rng.standard_normal((2 if deconvolution else 3, 2) + (3,) * ndim)
    numpy.testing.assert_array_equal(
        func(x, W, **given).array,
        func(x, W, **{**documented, **given}).array)


@pytest.mark.parametrize('length,k,stride,pad,cover_all,fits', [
    (2, 3, 1, 0, False, False), (3, 3, 1, 0, False, True),
    (1, 3, 1, 1, False, True), (2, 3, 2, 0, False, False),
    (2, 3, 2, 0, True, True), (1, 4, 2, 1, False, False),
    (1, 4, 2, 1, True, True), (1, 4, 3, 1, True, True),
    (2, 4, 2, 0, True, False)])
def test_convolution_nd_kernel_must_fit_the_padded_input(
        length, k, stride, pad, cover_all, fits):
    """The kernel must fit in x padded by pad on each side, and by stride
    - 1 more with cover_all: an output of one position at least."""
    x = numpy.zeros((1, 1, 4, length), numpy.float32)
    W = numpy.zeros((1, 1, 1, k), numpy.float32)
    options = dict(stride=(1, stride), pad=(0, pad), cover_all=cover_all)
    if fits:
        assert F.convolution_nd(x, W, **options).shape[3] >= 1
    else:
        with pytest.raises(type_check.InvalidType, match='ConvolutionND'):
            F.convolution_nd(x, W, **options)


@pytest.mark.parametrize('length, fits', [(7, True), (6, False)])
def test_a_dilated_kernel_must_fit_the_input(length, fits):
    """A kernel of 4 dilated by 2 spans 7 positions."""
    x = numpy.zeros((1, 1, length), numpy.float32)
    W = numpy.zeros((1, 1, 4), numpy.float32)
    if fits:
        assert F.convolution_nd(x, W, dilate=2).shape == (1, 1, 1)
    else:
        with pytest.raises(type_check.InvalidType, match='ConvolutionND'):
            F.convolution_nd(x, W, dilate=2)


@pytest.mark.parametrize('outsize', [(5, 7), (9, 7), (7, 5), (7, 9)])
def test_deconvolution_nd_outsize_must_come_back_to_x(outsize):
    """Each output length must be one whose convolution (with or without
    cover_all) has x's length: for 3 with a kernel of 3 and stride 2,
    6 to 8."""
    x = numpy.zeros((1, 2, 3, 3), numpy.float32)
    W = numpy.zeros((2, 1, 3, 3), numpy.float32)
    for good in ((6, 8), (8, 6), (7, 7)):
        assert F.deconvolution_nd(x, W, stride=2, outsize=good).shape == \
            (1, 1) + good
    with pytest.raises(type_check.InvalidType, match='DeconvolutionND'):
        F.deconvolution_nd(x, W, stride=2, outsize=outsize)


def test_deconvolution_nd_outsize_of_no_length_is_refused():
    """An output length of 0 is refused with the options' error, before
    the node checks it against x (x of length 1 with a kernel of 2 and
    pad 1 would come back from it)."""
    x = numpy.zeros((1, 2, 1, 3), numpy.float32)
    W = numpy.zeros((2, 1, 2, 3), numpy.float32)
    with pytest.raises(ValueError, match='deconvolution_nd: outsize'):
        F.deconvolution_nd(x, W, pad=(1, 0), outsize=(0, 5))
    # Left to be computed from x, a length of 0 or less is refused too.
    with pytest.raises(ValueError, match=r'would have lengths \(0, 5\)'):
        F.deconvolution_nd(x, W, pad=(1, 0))
    with pytest.raises(ValueError, match=r'would have lengths \(-1, 5\)'):
        F.deconvolution_nd(x, W[:, :, :1], pad=(1, 0))


def test_convolution_nd_needs_spatial_axes():
    with pytest.raises(ValueError, match='convolution_nd: x must'):
        F.convolution_nd(numpy.zeros((2, 3), numpy.float32),
                         numpy.zeros((2, 3), numpy.float32))


@pytest.mark.parametrize('func,ndim', [
    (F.convolution_1d, 1), (F.convolution_3d, 3),
    (F.deconvolution_1d, 1), (F.deconvolution_3d, 3)])
def test_1d_and_3d_forms_want_their_spatial_axes(func, ndim):
    """As Chainer: x of another number of spatial axes is a ValueError
    naming the number wanted."""
    x = numpy.zeros((2, 3, 4, 4), numpy.float32)
    W = numpy.zeros((3, 3, 2, 2), numpy.float32)
    with pytest.raises(ValueError, match=f'should be {ndim}. But the actual '
                                         f'ndim was 2'):
        func(x, W)


@pytest.mark.parametrize('x_shape,x_dtype,gy_shape,gy_dtype,needle', [
    ((2, 3, 5), numpy.float32, (2, 4, 4), numpy.float64, 'gy.dtype'),
    ((2, 3, 5), numpy.float32, (2, 4, 4), numpy.float16, 'gy.dtype'),
    ((2, 3, 5), numpy.int32, (2, 4, 4), numpy.int32, 'x.dtype.kind == f'),
    ((2, 3, 5, 1), numpy.float32, (2, 4, 4), numpy.float32, 'x.ndim == 3'),
    ((2, 3), numpy.float32, (2, 4, 4), numpy.float32, 'x.ndim == 3'),
    ((2, 3, 5), numpy.float32, (2, 4, 4, 1), numpy.float32, 'gy.ndim == 3'),
    ((2, 3, 5), numpy.float32, (2, 4), numpy.float32, 'gy.ndim == 3'),
    ((2, 3, 5), numpy.float32, (1, 4, 4), numpy.float32, 'x.shape[0]'),
    ((1, 3, 5), numpy.float32, (2, 4, 4), numpy.float32, 'x.shape[0]')])
def test_filter_gradient_node_checks_x_and_gy(x_shape, x_dtype, gy_shape,
                                              gy_dtype, needle):
    """The node of a 1-d convolution's filter gradient, applied as
    Chainer's may be: a float x and a gy of its dtype, both of three axes,
    of one batch."""
    node = convolution_nd.ConvolutionND(1)
    x = numpy.ones(x_shape, x_dtype)
    gy = numpy.ones(gy_shape, gy_dtype)
    with pytest.raises(type_check.InvalidType) as info:
        convolution_nd.ConvolutionNDGradW(node, (2,)).apply((x, gy))
    assert needle in str(info.value)


@pytest.mark.parametrize('node_class', [
    convolution_nd.ConvolutionND, deconvolution_nd.DeconvolutionND])
@pytest.mark.parametrize('x_shape,b_shape,needle', [
    ((2, 3), None, 'x.ndim == 3'), ((2, 3, 5, 5), None, 'x.ndim == 3'),
    ((2, 3, 5), (3, 1), 'b.ndim == 1'), ((2, 3, 5), (), 'b.ndim == 1')])
def test_nodes_check_x_s_axes_and_b_s(node_class, x_shape, b_shape, needle):
    # (The functions infer the number of spatial axes from x; a node
    # built for one checks that x has it.)
    x = numpy.ones(x_shape, numpy.float32)
    inputs = (x, numpy.ones((3, 3, 2), numpy.float32))
    if b_shape is not None:
        inputs += (numpy.ones(b_shape, numpy.float32),)
    with pytest.raises(type_check.InvalidType, match=re.escape(needle)):
        node_class(1).apply(inputs)


@pytest.mark.parametrize('node_class', [
    convolution_nd.ConvolutionND, deconvolution_nd.DeconvolutionND])
def test_nodes_built_as_chainer_s(node_class):
    """A node takes Chainer's defaults and int options; it wants two or
    three inputs."""
    x = numpy.ones((2, 3, 5), numpy.float32)
    W = numpy.ones((3, 3, 2), numpy.float32)
    y, = node_class(1, stride=2).apply((x, W))
    assert y.shape == ((2, 3, 2) if node_class is convolution_nd.ConvolutionND
                       else (2, 3, 10))
    # Stride 1 and no padding by default.
    y, = node_class(1).apply((x, W))
    assert y.shape == ((2, 3, 4) if node_class is convolution_nd.ConvolutionND
                       else (2, 3, 6))
    for inputs in ((x,), (x, W, W[0, :, 0], x)):
        with pytest.raises(type_check.InvalidType, match='in_types.size'):
            node_class(1).apply(inputs)
