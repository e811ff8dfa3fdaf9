"""Linear, embed_id and shift: options and errors the records cannot
express."""
import math
import sys

import numpy
import pytest

from kusari.autograd import functions as F
from kusari.autograd.function_node import grad
from kusari.autograd.functions.array import _scatter
from kusari.autograd.functions.connection import _numpy_blas
from kusari.autograd.functions.connection.embed_id import EmbedIDFunction
from kusari.autograd.functions.connection.embed_id import EmbedIDGrad
from kusari.autograd.functions.connection.linear import LinearFunction
from kusari.autograd.utils import type_check
from kusari.autograd.variable import Variable

from static_replays import check_replays


def test_linear_n_batch_axes_flattens_features():
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((2, 3, 4, 5))
    W = rng.standard_normal((6, 20))
    y = F.linear(x, W, n_batch_axes=2)
    assert y.shape == (2, 3, 6)
    numpy.testing.assert_allclose(y.array, x.reshape(2, 3, 20) @ W.T)


def test_linear_is_twice_differentiable():
    rng = numpy.random.default_rng(1)
    x = Variable(rng.standard_normal((3, 4)))
    W = Variable(rng.standard_normal((2, 4)))
    gx, = grad([F.sum(F.linear(x, W) ** 2)], [x],
               enable_double_backprop=True)
    F.sum(gx).backward()
    # gx = 2 x W^T W; the gradient of sum(gx) with respect to W:
    ones = numpy.ones((3, 4))
    expected = 2 * (W.array @ ones.T @ x.array + W.array @ x.array.T @ ones)
    numpy.testing.assert_allclose(W.grad, expected)


def _layouts(x):
    """``x`` (2-D) four ways: no contiguous axis, Fortran order, rows apart
    in memory, C order."""
    padded = numpy.zeros((x.shape[0], x.shape[1] + 2), x.dtype)
    padded[:, :x.shape[1]] = x
    spread = numpy.zeros((x.shape[0] * 2, x.shape[1] * 2), x.dtype)[::2, ::2]
    spread[...] = x
    return [spread, numpy.asfortranarray(x), padded[:, :x.shape[1]], x]


def _counting_gemm_add(monkeypatch):
    """The results of every call of ``_numpy_blas.gemm_add``, as made."""
    results = []
    real_gemm_add = _numpy_blas.gemm_add

    def gemm_add(*args):
        results.append(real_gemm_add(*args))
        return results[-1]
    monkeypatch.setattr(_numpy_blas, 'gemm_add', gemm_add)
    return results


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('double_backprop', [False, True])
@pytest.mark.parametrize('blas_found', [True, False])
def test_linear_used_at_every_step_sums_its_gradients(
        blas_found, double_backprop, dtype, monkeypatch):
    # After the first step, gy^T x is multiplied into the gradient the
    # backward pass holds (float32/64, by NumPy's BLAS: SciPy's, with a
    # thread pool of its own, is not called, so here it cannot be
    # imported); other contributions to W mix in, and the gradients of x
    # and b are those of every step. The steps the pass reaches after the
    # first (the last) get x and gy in the layouts BLAS is handed: no
    # contiguous axis (copied), Fortran order, rows apart in memory.
    # Where NumPy's BLAS is not found, each product is added by NumPy.
    for name in ('scipy', 'scipy.linalg', 'scipy.linalg.blas'):
        monkeypatch.setitem(sys.modules, name, None)
    if not blas_found:
        monkeypatch.setattr(_numpy_blas, '_gemms',
                            dict.fromkeys(_numpy_blas._SCALARS))
    fused = _counting_gemm_add(monkeypatch)
    rng = numpy.random.default_rng(2)
    W = Variable(rng.standard_normal((3, 4)).astype(dtype))
    b = Variable(rng.standard_normal(3).astype(dtype))
    xs = _layouts(rng.standard_normal((5, 4)).astype(dtype))
    weights = rng.standard_normal((4, 5, 3)).astype(dtype)
    loss = F.sum(W * 10)
    for i, (x, weight) in enumerate(zip(xs, weights)):
        y = F.linear(Variable(x), W, b)
        if i == 1:  # gy in Fortran order: the transpose of a C-order one
            term = F.transpose(y) * numpy.ascontiguousarray(weight.T)
        elif i == 2:  # gy's rows apart: a slice of the padded y's
            term = F.pad(y, ((0, 0), (0, 2)), 'constant') * \
                numpy.pad(weight, ((0, 0), (0, 2)))
        else:
            term = y * weight
        loss = loss + F.sum(term)
    loss.backward(enable_double_backprop=double_backprop)
    in_place = dtype != numpy.float16 and \
        _numpy_blas.gemm(numpy.dtype(dtype)) is not None
    # Three of the four steps find W's gradient held by the pass (none
    # while it records a graph for double backprop).
    assert fused == ([] if double_backprop else [in_place] * 3)
    tolerance = {numpy.float16: 1e-2, numpy.float32: 1e-5}.get(dtype, 1e-7)
    numpy.testing.assert_allclose(
        W.grad, 10 + sum(w.T @ x for x, w in zip(xs, weights)),
        rtol=tolerance)
    numpy.testing.assert_allclose(b.grad, weights.sum(axis=(0, 1)),
                                  rtol=tolerance)


def test_linear_steps_alone_fuse_every_gradient_after_the_first(monkeypatch):
    # The first gradient of W the pass reaches is handed over to it, so
    # the next step already finds one it may add into.
    fused = _counting_gemm_add(monkeypatch)
    W = Variable(numpy.ones((3, 4)))
    loss = sum(F.sum(F.linear(numpy.ones((2, 4)), W)) for _ in range(4))
    loss.backward()
    in_place = _numpy_blas.gemm(numpy.dtype(numpy.float64)) is not None
    assert fused == [in_place] * 3
    numpy.testing.assert_array_equal(W.grad, numpy.full((3, 4), 8.0))


def test_linear_array_backward_adds_into_the_gradient_it_is_given():
    # static_graph's replay hands over W's gradient so far, or None.
    node = LinearFunction()
    x = numpy.arange(6.0).reshape(2, 3)
    W = numpy.ones((4, 3))
    node.apply((x, W))
    gy = numpy.ones((2, 4))
    gx, gW = node.array_backward_add((0, 1), (gy,), (x, W), (None,),
                                     (None, None))
    numpy.testing.assert_array_equal(gx, gy @ W)
    numpy.testing.assert_array_equal(gW, gy.T @ x)
    if _numpy_blas.gemm(numpy.dtype(numpy.float64)) is not None:
        into = numpy.ones((4, 3))
        gx, gW = node.array_backward_add((0, 1), (gy,), (x, W), (None,),
                                         (None, into))
        assert gW is None
        numpy.testing.assert_array_equal(gx, gy @ W)
        numpy.testing.assert_array_equal(into, 1 + gy.T @ x)
        gW, = node.array_backward_add((1,), (gy,), (x, W), (None,), (into,))
        assert gW is None
        numpy.testing.assert_array_equal(into, 1 + 2 * gy.T @ x)


@pytest.mark.parametrize('inputs, needle', [
    ((numpy.ones((2, 3)),), r'in_types.size == 2 \(x, W\)'),
    ((numpy.ones(3), numpy.ones((4, 3))), 'x.ndim == 2'),
    ((numpy.ones((2, 3, 1)), numpy.ones((4, 3))), 'x.ndim == 2'),
    ((numpy.ones((2, 3)), numpy.ones(3)), 'W.ndim == 2'),
    ((numpy.ones((2, 3)), numpy.ones((4, 3, 1))), 'W.ndim == 2'),
    ((numpy.ones((2, 3)), numpy.ones((4, 5))), r'x.shape\[1\] == W.shape'),
    ((numpy.ones((2, 5)), numpy.ones((4, 3))), r'x.shape\[1\] == W.shape')])
def test_linear_node_checks_its_matrices(inputs, needle):
    with pytest.raises(type_check.InvalidType, match=needle):
        LinearFunction().apply(inputs)


@pytest.mark.parametrize('x_shape, n_batch_axes, y_shape', [
    ((3,), 1, (3, 4)), ((2, 3), 2, (2, 3, 4))])
def test_linear_of_no_feature_axes_reads_one_feature(x_shape, n_batch_axes,
                                                    y_shape):
    x = numpy.arange(6.0)[:math.prod(x_shape)].reshape(x_shape)
    W = numpy.arange(4.0).reshape(4, 1)
    y = F.linear(x, W, n_batch_axes=n_batch_axes)
    assert y.shape == y_shape
    numpy.testing.assert_array_equal(y.array, x[..., None] * W[:, 0])


@pytest.mark.parametrize('x_dtype,w_dtype,needle', [
    (numpy.int32, numpy.float32, "x.dtype.kind == 'f'"),
    (numpy.bool_, numpy.float32, "x.dtype.kind == 'f'"),
    (numpy.complex64, numpy.float32, "x.dtype.kind == 'f'"),
    (numpy.float32, numpy.int32, "W.dtype.kind == 'f'"),
    (numpy.float32, numpy.bool_, "W.dtype.kind == 'f'"),
    (numpy.float32, numpy.complex64, "W.dtype.kind == 'f'")])
def test_linear_wants_float_x_and_w(x_dtype, w_dtype, needle):
    with pytest.raises(type_check.InvalidType) as info:
        F.linear(numpy.ones((2, 3), x_dtype), numpy.ones((4, 3), w_dtype))
    assert needle.replace("'", '') in str(info.value)


@pytest.mark.parametrize('n_batch_axes', [0, -1, 1.0, True])
def test_linear_bad_n_batch_axes(n_batch_axes):
    with pytest.raises(ValueError, match='linear: n_batch_axes'):
        F.linear(numpy.zeros((2, 3)), numpy.zeros((4, 3)),
                 n_batch_axes=n_batch_axes)


def test_embed_id_ignore_label_rows_are_zero_and_get_no_gradient():
    W = Variable(numpy.arange(6.0).reshape(3, 2))
    x = numpy.array([2, -1, 2, 0], numpy.int32)
    y = F.embed_id(x, W, ignore_label=-1)
    numpy.testing.assert_array_equal(
        y.array, [[4, 5], [0, 0], [4, 5], [0, 1]])
    y.grad = numpy.ones((4, 2))
    y.backward()
    numpy.testing.assert_array_equal(W.grad, [[1, 1], [0, 0], [2, 2]])


@pytest.mark.parametrize('double_backprop', [False, True])
def test_embed_id_used_at_every_step_sums_its_rows(double_backprop):
    # After the first step, the rows are added in place to the gradient
    # the backward pass holds; other contributions mix in, and the
    # gradient of a step's output is left untouched.
    W = Variable(numpy.arange(8.0).reshape(4, 2))
    steps = [numpy.array(ids, numpy.int32)
             for ids in ([1, 3], [1, 1], [-1, 2], [0, 3])]
    ys = [F.embed_id(x, W, ignore_label=-1) for x in steps]
    loss = F.sum(W * 10)
    for i, y in enumerate(ys):
        loss = loss + F.sum(y * (i + 1))
    loss.backward(enable_double_backprop=double_backprop)
    expected = numpy.full((4, 2), 10.0)
    for i, x in enumerate(steps):
        for id_ in x[x >= 0]:
            expected[id_] += i + 1
    numpy.testing.assert_array_equal(W.grad, expected)


def test_embed_id_over_a_sequence_makes_one_gradient_matrix(monkeypatch):
    # Later steps add their rows into the first step's matrix in place.
    made = []
    zeros_and_rows = EmbedIDGrad._zeros_and_rows

    def counted(node, inputs):
        made.append(node)
        return zeros_and_rows(node, inputs)
    monkeypatch.setattr(EmbedIDGrad, '_zeros_and_rows', counted)
    W = Variable(numpy.zeros((4, 2)))
    ids = numpy.array([1, 3], numpy.int32)
    loss = sum(F.sum(F.embed_id(ids, W)) for _ in range(5))
    loss.backward()
    assert len(made) == 1
    numpy.testing.assert_array_equal(W.grad, [[0, 0], [5, 5], [0, 0], [5, 5]])


def test_embed_id_sums_rows_by_segments_on_numpy(monkeypatch):
    # scatter_add (an add per row) is the GPU's way; on NumPy each id's
    # rows are summed in one reduceat, several times faster.
    def scatter_add(*args):
        raise AssertionError('scatter_add called on NumPy arrays')
    monkeypatch.setattr(_scatter, 'scatter_add', scatter_add)
    W = Variable(numpy.zeros((3, 2)))
    F.sum(F.embed_id(numpy.array([2, 0, 2], numpy.int32), W)).backward()
    numpy.testing.assert_array_equal(W.grad, [[1, 1], [0, 0], [2, 2]])


def test_embed_id_adds_into_no_gradient_the_pass_does_not_own():
    # F.sum's gradient of W, a read-only broadcast view, reaches W first.
    W = Variable(numpy.zeros((3, 2)))
    y = F.embed_id(numpy.array([1, 1], numpy.int32), W)
    (F.sum(y) + F.sum(W)).backward()
    numpy.testing.assert_array_equal(W.grad, [[1, 1], [3, 3], [1, 1]])


def test_embed_id_array_backward_adds_into_the_gradient_it_is_given():
    # static_graph's replay hands over W's gradient so far, or None.
    node = EmbedIDFunction(ignore_label=-1)
    x = numpy.array([2, -1, 2], numpy.int32)
    node.apply((x, numpy.zeros((3, 2))))
    gy = numpy.ones((3, 2))
    gxs = node.array_backward_add((1,), (gy,), (x, None), (None,), (None,))
    numpy.testing.assert_array_equal(gxs[-1], [[0, 0], [0, 0], [2, 2]])
    gW = numpy.ones((3, 2))
    gxs = node.array_backward_add((1,), (gy,), (x, None), (None,), (gW,))
    assert gxs == (None,)
    numpy.testing.assert_array_equal(gW, [[1, 1], [1, 1], [3, 3]])


@pytest.mark.parametrize('W, check', [
    (numpy.zeros(3), r'W\.ndim == 2'), (numpy.zeros((3, 2, 1)), r'W\.ndim'),
    (numpy.zeros((3, 2), numpy.int32), r'W\.dtype\.kind == f'),
    (numpy.zeros((3, 2), numpy.complex64), r'W\.dtype\.kind == f')])
def test_embed_id_takes_a_float_matrix_of_embeddings(W, check):
    with pytest.raises(type_check.InvalidType, match=check):
        F.embed_id(numpy.array([0], numpy.int32), W)


@pytest.mark.parametrize('ids', [[0, 3], [0, 4], [-1, 0]])
def test_embed_id_rejects_ids_outside_vocabulary(ids):
    with pytest.raises(ValueError, match=r'embed_id: ids in x must be in '
                                         r'\[0, 3\)'):
        F.embed_id(numpy.array(ids, numpy.int32), numpy.zeros((3, 2)))


def test_shift_backward_is_the_opposite_shift():
    rng = numpy.random.default_rng(2)
    x = rng.standard_normal((1, 9, 4, 5))
    gy = rng.standard_normal(x.shape)
    y = F.shift(x, ksize=3, dilate=2).array
    gx = F.shift(gy, ksize=3, dilate=-2).array
    numpy.testing.assert_allclose((y * gy).sum(), (x * gx).sum())


@pytest.mark.parametrize('ksize', [2, 4, (3, 2)])
def test_shift_bad_ksize(ksize):
    with pytest.raises(ValueError, match='shift: ksize must be odd'):
        F.shift(numpy.zeros((1, 16, 3, 3)), ksize=ksize)


@pytest.mark.parametrize('x, check', [
    (numpy.zeros((1, 9, 3, 3), numpy.int32), 'x.dtype.kind == f'),
    (numpy.zeros((1, 9, 3, 3), numpy.complex64), 'x.dtype.kind == f'),
    (numpy.zeros((1, 9, 3, 3, 1)), 'x.ndim'),
    (numpy.zeros((9, 3, 3)), 'x.ndim'),
    (numpy.zeros((1, 8, 3, 3)), r'x.shape\[1\] >= 9')])
def test_shift_wants_float_x_of_a_channel_per_offset(x, check):
    with pytest.raises(type_check.InvalidType, match=check):
        F.shift(x, ksize=3)


def test_shift_gives_each_channel_of_a_5x5_kernel_its_own_offset():
    # One point in the middle of every channel: where it lands is the
    # channel's offset; the last channel is the unshifted centre.
    x = numpy.zeros((1, 25, 5, 5))
    x[:, :, 2, 2] = 1
    y = F.shift(x, ksize=5).array[0]
    offsets = [tuple(numpy.argwhere(channel)[0] - 2) for channel in y]
    assert sorted(offsets) == [(dy, dx) for dy in range(-2, 3)
                               for dx in range(-2, 3)]
    assert offsets[-1] == (0, 0)


def test_shift_moves_each_group_of_channels_as_one():
    # Two channels per offset move as the one channel of each offset does.
    x = numpy.random.default_rng(3).standard_normal((2, 9, 4, 5))
    numpy.testing.assert_array_equal(
        F.shift(numpy.repeat(x, 2, axis=1), dilate=(1, 2)).array,
        numpy.repeat(F.shift(x, dilate=(1, 2)).array, 2, axis=1))


def test_bilinear_needs_all_or_no_linear_terms():
    e = numpy.zeros((2, 3))
    with pytest.raises(ValueError, match='bilinear: give all'):
        F.bilinear(e, e, numpy.zeros((3, 3, 2)), V1=numpy.zeros((3, 2)))


@pytest.mark.parametrize('x_shape,w_shape', [
    ((1, 2, 4, 4), (2, 3, 2, 2)), ((1, 3, 4, 4), (2, 2, 2, 2)),
    ((1, 2, 4), (2, 2, 2, 2)), ((1, 2, 4, 4, 1), (2, 2, 2, 2)),
    ((1, 2, 4, 4), (2, 2, 2)), ((1, 2, 4, 4), (2, 2, 2, 2, 1))])
def test_depthwise_and_deformable_want_x_and_w_of_one_c(x_shape, w_shape):
    """x ``(n, c, h, w)`` and W of four axes, whose second is c: each
    axis count above and below, a W of more and of fewer channels."""
    x = numpy.zeros(x_shape)
    W = numpy.zeros(w_shape)
    with pytest.raises(ValueError, match='depthwise_convolution_2d: x must '
                                         r'be \(n, c, h, w\)'):
        F.depthwise_convolution_2d(x, W)
    offset = numpy.zeros((1, 8, 3, 3))
    with pytest.raises(ValueError, match='deformable_convolution_2d_sampler: '
                                         r'x must be \(n, c, h, w\)'):
        F.deformable_convolution_2d_sampler(x, offset, W)


@pytest.mark.parametrize('x_shape,w_shape', [
    ((1, 2, 4, 4), (2, 3, 3, 3, 2, 2)), ((1, 3, 4, 4), (2, 3, 3, 2, 2, 2)),
    ((1, 2, 4), (2, 3, 3, 2, 2, 2)), ((1, 2, 4, 4, 1), (2, 3, 3, 2, 2, 2)),
    ((1, 2, 4, 4), (2, 3, 3, 2, 2)), ((1, 2, 4, 4), (2, 3, 3, 2, 2, 2, 1))])
def test_local_convolution_wants_x_and_w_of_one_c(x_shape, w_shape):
    with pytest.raises(ValueError, match=r'local_convolution_2d: x must be '
                                         r'\(n, c, h, w\)'):
        F.local_convolution_2d(numpy.zeros(x_shape), numpy.zeros(w_shape))


@pytest.mark.parametrize('outputs', [(2, 3), (4, 3), (3, 2), (3, 4)])
def test_local_convolution_wants_w_for_every_output(outputs):
    """x 4 x 4 with a 2 x 2 kernel: 3 x 3 outputs, so W (out, 3, 3, c, 2,
    2); W for more or fewer rows or columns is refused."""
    x = numpy.zeros((1, 2, 4, 4))
    W = numpy.zeros((2,) + outputs + (2, 2, 2))
    with pytest.raises(ValueError, match=f'local_convolution_2d: W is for '
                                         f'{outputs[0]} x {outputs[1]} '
                                         f'outputs.* gives 3 x 3'):
        F.local_convolution_2d(x, W)


@pytest.mark.parametrize('offset_shape', [
    (1, 8, 3, 3), (2, 8, 2, 2), (1, 7, 2, 2), (1, 9, 2, 2), (1, 8, 2, 3)])
def test_deformable_convolution_wants_an_offset_per_tap_and_output(
        offset_shape):
    """x 3 x 3 with a 2 x 2 kernel: offsets (n, 2 * 4, 2, 2)."""
    x = numpy.zeros((1, 2, 3, 3))
    W = numpy.zeros((2, 2, 2, 2))
    with pytest.raises(ValueError, match=r'offset must have shape \(1, 8, '
                                         r'2, 2\)'):
        F.deformable_convolution_2d_sampler(x, numpy.zeros(offset_shape), W)


# A 0-d or 1-d e1 or e2 is refused, as Chainer's type check does (ndim
# >= 2): an axis of features must follow the batch axis.
@pytest.mark.parametrize('e1_shape,e2_shape', [
    ((), (2, 3)), ((2, 3), ()), ((2, 3), (3, 3)), ((3, 3), (2, 3)),
    ((3,), (3, 2)), ((3, 2), (3,)), ((3,), (3,))])
def test_bilinear_wants_e1_and_e2_of_one_batch(e1_shape, e2_shape):
    with pytest.raises(ValueError, match='bilinear: e1 and e2 must share '
                                         'the batch axis and have features'):
        F.bilinear(numpy.zeros(e1_shape), numpy.zeros(e2_shape),
                   numpy.zeros((3, 3, 2)))


@pytest.mark.parametrize('w_shape', [
    (3, 4), (3, 4, 2, 1), (2, 4, 2), (4, 4, 2), (3, 3, 2), (3, 5, 2)])
def test_bilinear_wants_w_of_e1_and_e2_sides(w_shape):
    """e1 (2, 3) and e2 (2, 2, 2), flattened to (2, 4): W (3, 4, K)."""
    with pytest.raises(ValueError, match=r'bilinear: W must have shape '
                                         r'\(3, 4, K\)'):
        F.bilinear(numpy.zeros((2, 3)), numpy.zeros((2, 2, 2)),
                   numpy.zeros(w_shape))


@pytest.mark.parametrize('stride, pad', [((2, 1), (1, 2)), ((1, 2), (2, 0))])
def test_deformable_convolution_of_zero_offsets_is_a_convolution(stride,
                                                                 pad):
    """Every tap where the kernel puts it: the plain convolution, with
    strides and paddings that differ between the axes."""
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((2, 3, 5, 6))
    W = rng.standard_normal((4, 3, 3, 2))
    b = rng.standard_normal(4)
    expected = F.convolution_2d(x, W, b, stride=stride, pad=pad)
    offset = numpy.zeros((2, 2 * 3 * 2) + expected.shape[2:])
    y = F.deformable_convolution_2d_sampler(x, offset, W, b, stride=stride,
                                            pad=pad)
    numpy.testing.assert_allclose(y.array, expected.array, rtol=1e-12,
                                  atol=1e-12)


def test_deformable_convolution_names_the_offset_shape_of_its_kernel():
    """A 3 x 2 kernel over x 4 x 4: offsets (n, 2 * 6, 2, 3), so named."""
    x = numpy.zeros((1, 2, 4, 4))
    W = numpy.zeros((2, 2, 3, 2))
    with pytest.raises(ValueError, match=r'offset must have shape \(1, 12, '
                                         r'2, 3\)'):
        F.deformable_convolution_2d_sampler(x, numpy.zeros((1, 8, 2, 3)), W)


@pytest.mark.parametrize('x_dtype, stride', [
    (numpy.complex128, 1), (numpy.int64, 1), (numpy.float64, 0),
    (numpy.float64, (1, 0))])
def test_deformable_convolution_refuses_bad_x_or_stride(x_dtype, stride):
    x = numpy.zeros((1, 2, 3, 3), x_dtype)
    W = numpy.zeros((2, 2, 2, 2))
    offset = numpy.zeros((1, 8, 2, 2), x_dtype)
    with pytest.raises((TypeError, ValueError),
                       match='deformable_convolution_2d_sampler: '):
        F.deformable_convolution_2d_sampler(x, offset, W, stride=stride)


@pytest.mark.parametrize('pad', [-1, (0, -1)])
def test_deformable_convolution_refuses_a_negative_pad(pad):
    """x 5 x 5 and offsets that would fit the padding taken off."""
    x = numpy.zeros((1, 2, 5, 5))
    offset = numpy.zeros((1, 8) + ((2, 2) if pad == -1 else (4, 2)))
    with pytest.raises(ValueError, match='deformable_convolution_2d_sampler: '
                                         'pad must be at least 0'):
        F.deformable_convolution_2d_sampler(x, offset,
                                            numpy.zeros((2, 2, 2, 2)),
                                            pad=pad)


def test_deformable_convolution_finds_each_taps_cell_on_replays():
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((1, 2, 3, 3))
    W = rng.standard_normal((2, 2, 2, 2))
    # The taps read the same pixel cells in the two recordings; in the
    # replay others, some of them outside the padded input.
    offset = rng.uniform(0.1, 0.4, (1, 8, 2, 2))
    offsets = [offset, offset + 0.05, rng.uniform(-2.5, 2.5, offset.shape)]
    check_replays(F.deformable_convolution_2d_sampler,
                  [(x, offset, W) for offset in offsets])
