"""Forward and gradients of the differential cases, for any Chainer-like
API: run by the test with Kusari, and by ``oracle.py`` with Chainer.

Only NumPy is imported here, so the oracle's interpreter needs nothing
but Chainer.
"""
import zlib

import numpy


def u(*shape, low=-2, high=2):
    """A differentiable input of the case's dtype, uniform in
    ``[low, high)``."""
    return (shape, low, high)


def c(*shape, low=-2, high=2, dtype=None):
    """A constant (plain array) input, not differentiated: integers in
    ``[low, high)`` for ``dtype`` 'int32', 'int64' or 'bool', uniform
    ones of the case's float dtype for ``None``, or of a kind that
    :func:`_draw_one` makes: 'perm', 'mask', 'zeros', 'sparse', 'roi'."""
    return (shape, low, high, dtype)


def rois(count, size=6):
    """The inputs of a ROI function: ``x`` (2 images of 2 channels,
    ``size`` square), ``count`` regions ``r`` and their image indices
    ``i``."""
    return {'x': u(2, 2, size, size), 'r': c(count, 4, dtype='roi'),
            'i': c(count, low=0, high=2, dtype='int32')}


def lists(name, groups, size):
    """Source of ``groups`` lists of ``size`` slices of the input
    ``name``: per-layer weights of the n_step functions cut from one
    input."""
    return '[' + ', '.join(
        f'[{name}[{group * size} + i] for i in range({size})]'
        for group in range(groups)) + ']'


# biases (enough for every case) and two sequences (lengths 2 and 1) of
# 3 features
RNN_INPUTS = {'b': u(16, 3), 'x0': u(2, 3), 'x1': u(1, 3)}


# name: (expression, {input name: u(...) or c(...)}, dtype[, order]).
# ``order`` is the highest order of gradients compared: 2 by default, 1
# where Chainer 7.8.1 has no double backprop for the function, 0 for
# functions without gradients; a tuple of input names compares the second
# order only through the first-order gradients of those inputs (where
# Chainer's double backprop fails on the others). Inputs and gradients are
# drawn by the test and shared through an .npz file.
F64, F32, F16 = 'float64', 'float32', 'float16'
EYE3 = 'numpy.eye(3)'
CASES = {
    # --- the original cases ------------------------------------------------
    'add_broadcast': ('F.add(a, b, c)', {
        'a': u(2, 3), 'b': u(3), 'c': u(2, 1)}, F64),
    'mul_div': ('a * b / c', {
        'a': u(3, 4), 'b': u(1, 4), 'c': u(3, 1, low=0.5)}, F64),
    'pow': ('a ** b + 2.0 ** a + a ** 3', {
        'a': u(4, low=0.5), 'b': u(4)}, F64),
    'matmul_batched_trans': ('F.matmul(a, b, transa=True, transb=True)', {
        'a': u(2, 1, 4, 3), 'b': u(3, 5, 4)}, F64),
    'matmul_vector': ('F.matmul(a, b)', {'a': u(4), 'b': u(2, 4, 3)}, F64),
    'sum_axis': ('F.sum(a, axis=(0, -1), keepdims=True)', {
        'a': u(2, 3, 4)}, F64),
    'sum_to': ('F.sum_to(a, (3, 1))', {'a': u(2, 3, 4)}, F64),
    'exp_log_tanh': ('F.exp(a) + F.log(b) * F.tanh(a)', {
        'a': u(3, 3), 'b': u(3, 3, low=0.2)}, F64),
    'absolute_neg': ('-F.absolute(a - b)', {
        'a': u(5, low=1), 'b': u(5, high=-1)}, F64),
    'reshape_transpose': (
        'F.transpose(F.reshape(a, (4, -1)), (1, 0)) * 2', {
            'a': u(2, 3, 2)}, F64),
    'broadcast_to_cast': ('F.cast(F.broadcast_to(a, (2, 3, 4)), "float64")',
                          {'a': u(3, 1)}, F32),
    'get_item': ('F.get_item(a, (slice(None, None, -1), [0, 2, 2]))', {
        'a': u(3, 4)}, F64),
    'identity': ('F.identity(a, b)', {'a': u(2, 3), 'b': u(3)}, F64),
    'broadcast_identity': ('F.identity(*F.broadcast(a, b))', {
        'a': u(2, 1), 'b': u(3)}, F64),
    # --- activations ---------------------------------------------------------
    'clipped_relu': ('F.clipped_relu(a, z=1.5)', {'a': u(3, 4)}, F64),
    'crelu_axis': ('F.crelu(a, axis=0)', {'a': u(3, 4)}, F64),
    'elu_alpha': ('F.elu(a, alpha=0.7)', {'a': u(3, 4)}, F64),
    'hard_sigmoid': ('F.hard_sigmoid(a)', {'a': u(3, 4, low=-3, high=3)},
                     F64),
    'leaky_relu': ('F.leaky_relu(a, slope=0.3)', {'a': u(3, 4)}, F64),
    'log_softmax_axis': ('F.log_softmax(a, axis=0)', {'a': u(3, 4)}, F64),
    'log_softmax_f32': ('F.log_softmax(a)', {'a': u(3, 4)}, F32),
    'lstm': ('F.lstm(c, x)', {'c': u(2, 3), 'x': u(2, 12)}, F64),
    'maxout': ('F.maxout(a, 2, axis=1)', {'a': u(3, 4, 2)}, F64),
    'prelu': ('F.prelu(a, w)', {'a': u(2, 3, 4), 'w': u(3)}, F64),
    'rrelu_pinned': ('F.rrelu(a, r=r)', {
        'a': u(3, 4), 'r': c(3, 4, low=0.1, high=0.3)}, F64),
    'relu': ('F.relu(a)', {'a': u(3, 4)}, F64),
    'relu_f16': ('F.relu(a)', {'a': u(3, 4)}, F16),
    'relu6': ('F.relu6(a)', {'a': u(3, 4, low=-3, high=9)}, F64),
    'selu': ('F.selu(a, alpha=1.5, scale=1.1)', {'a': u(3, 4)}, F64),
    'sigmoid': ('F.sigmoid(a)', {'a': u(3, 4)}, F64),
    'sigmoid_f16': ('F.sigmoid(a)', {'a': u(3, 4)}, F16),
    'softmax_axis': ('F.softmax(a, axis=2)', {'a': u(2, 3, 4)}, F64),
    'softplus_beta': ('F.softplus(a, beta=2.0)', {'a': u(3, 4)}, F64),
    'swish': ('F.swish(a, b)', {'a': u(2, 3, 4), 'b': u(3)}, F64),
    'tanh_f32': ('F.tanh(a)', {'a': u(3, 4)}, F32),
    'slstm': ('F.slstm(c1, c2, x1, x2)', {
        'c1': u(2, 3), 'c2': u(2, 3), 'x1': u(2, 12), 'x2': u(2, 12)}, F64),
    'tree_lstm': ('F.tree_lstm(c1, c2, x)', {
        'c1': u(2, 3), 'c2': u(2, 3), 'x': u(2, 15)}, F64, 1),
    # --- arithmetic and math -------------------------------------------------
    'arith_ops': ('(a - b) * 2 - 1 / (b * b + 1) - a / 3 + abs(b) - 3', {
        'a': u(3, 4), 'b': u(3, 4)}, F64),
    'rpow_rsub_rdiv': ('(1.5 ** a) - (2 - b) / (3 / (b * b + 1))', {
        'a': u(3), 'b': u(3)}, F64),
    'ndarray_left_operands': (
        '(k + a, k - a, k * a, k / (a * a + 1), (k * k + 1) ** a, k @ a.T, '
        'numpy.float64(2.0) * a, a ** 2, abs(a) ** 0.5)', {
            'a': u(3, 3), 'k': c(3, 3)}, F64),
    'variable_methods': (
        '(a.T, a.reshape(9), a.transpose(1, 0), a[None, ::2], a.mean(), '
        'a.mean(axis=0, weights=w, keepdims=True))', {
            'a': u(3, 3), 'w': u(3, low=0.5)}, F64),
    'floor_division': ('(a // 0.7, 1.5 // a, k // a, a // b)', {
        'a': u(3, 4, low=0.2), 'b': u(3, 4, low=0.2), 'k': c(3, 4)}, F64,
        0),
    'matmul_f32': ('a @ b', {'a': u(3, 4), 'b': u(4, 2)}, F32),
    'trig': ('F.sin(a) + F.cos(a) * F.tan(a / 2) + F.sinh(a) - F.cosh(a)',
             {'a': u(3, 4)}, F64),
    'inverse_trig': ('F.arcsin(a) + F.arccos(a) * F.arctan(a) '
                     '+ F.arctanh(a)', {'a': u(3, 4, low=-0.9, high=0.9)},
                     F64),
    'arctan2': ('F.arctan2(a, b)', {'a': u(3, 4), 'b': u(3, 4)}, F64),
    'argmax_axis': ('F.argmax(a, axis=1)', {'a': u(3, 4)}, F64, 0),
    'argmin': ('F.argmin(a)', {'a': u(3, 4)}, F64, 0),
    'average_weights': ('F.average(a, axis=1, weights=w, keepdims=True)', {
        'a': u(3, 4), 'w': u(4, low=0.5)}, F64),
    'average_all': ('F.average(a)', {'a': u(3, 4)}, F64),
    'batch_inv': (f'F.batch_inv(a + 3 * {EYE3})', {'a': u(2, 3, 3)}, F64),
    'inv': (f'F.inv(a + 3 * {EYE3})', {'a': u(3, 3)}, F64),
    'det': (f'F.det(a + 2 * {EYE3})', {'a': u(3, 3)}, F64),
    'batch_det': (f'F.batch_det(a + 2 * {EYE3})', {'a': u(2, 3, 3)}, F64),
    'batch_l2_norm_squared': ('F.batch_l2_norm_squared(a)', {
        'a': u(3, 2, 2)}, F64),
    'batch_matmul': ('F.batch_matmul(a, b, transa=True)', {
        'a': u(2, 4, 3), 'b': u(2, 4, 2)}, F32),
    'bias_axis': ('F.bias(a, b, axis=1)', {'a': u(2, 3, 4), 'b': u(3, 4)},
                  F64),
    'scale_axis': ('F.scale(a, b, axis=1)', {'a': u(2, 3, 4), 'b': u(3)},
                   F64),
    'rounding': ('F.ceil(a) + F.floor(a) * F.fix(a) + F.sign(a)', {
        'a': u(3, 4)}, F64, 0),
    'cholesky': (f'F.cholesky(F.matmul(a, a, transb=True) + {EYE3})', {
        'a': u(3, 3)}, F64),
    'clip': ('F.clip(a, -1.0, 0.5)', {'a': u(3, 4)}, F64),
    'cumsum_axis': ('F.cumsum(a, axis=0)', {'a': u(3, 4)}, F64),
    'cumprod_axis': ('F.cumprod(a, axis=1)', {'a': u(3, 4)}, F64),
    'cumsum_flat': ('F.cumsum(a)', {'a': u(3, 4)}, F64),
    'digamma_lgamma': ('F.digamma(a) + F.lgamma(a)', {
        'a': u(3, 4, low=0.5, high=3)}, F64),
    'polygamma': ('F.polygamma(n, a)', {
        'n': c(3, 4, low=0, high=3, dtype='int32'),
        'a': u(3, 4, low=0.5, high=3)}, F64),
    'zeta': ('F.zeta(x, q)', {
        'x': c(3, 4, low=2, high=4), 'q': u(3, 4, low=0.5, high=3)}, F64),
    'einsum': ('F.einsum("ij,jk->ik", a, b)', {'a': u(3, 4), 'b': u(4, 2)},
               F64),
    'einsum_trace': ('F.einsum("ii,bij->b", a, b)', {
        'a': u(3, 3), 'b': u(2, 3, 3)}, F64),
    'erf_family': ('F.erf(a) + F.erfc(a) * F.erfcx(a) + F.ndtr(a) '
                   '+ F.log_ndtr(a)', {'a': u(3, 4)}, F64),
    'erfinv_family': ('F.erfinv(a) + F.erfcinv(a + 1) + F.ndtri(a / 2 + 0.5)',
                      {'a': u(3, 4, low=-0.9, high=0.9)}, F64),
    'exp_expm1': ('F.exp(a) * F.expm1(a)', {'a': u(3, 4)}, F64),
    'logs': ('F.log10(a) + F.log1p(a) * F.log2(a)', {
        'a': u(3, 4, low=0.2)}, F64),
    'sqrt_rsqrt': ('F.sqrt(a) + F.rsqrt(a) * F.square(a)', {
        'a': u(3, 4, low=0.2)}, F64),
    'fft': ('F.fft((a, b))', {'a': u(2, 4), 'b': u(2, 4)}, F64),
    'ifft': ('F.ifft((a, b))', {'a': u(2, 4), 'b': u(2, 4)}, F64),
    'fmod': ('F.fmod(a, b)', {'a': u(3, 4), 'b': u(3, 4, low=0.5)}, F64),
    'linear_interpolate': ('F.linear_interpolate(p, x, y)', {
        'p': u(3, 4, low=0, high=1), 'x': u(3, 4), 'y': u(3, 4)}, F64),
    'logsumexp_axis': ('F.logsumexp(a, axis=(0, 2))', {'a': u(2, 3, 4)},
                       F64),
    'max_min': ('F.max(a, axis=1, keepdims=True) + F.min(a, axis=0)', {
        'a': u(3, 4)}, F64),
    'maximum_minimum': ('F.maximum(a, b) * F.minimum(a, b)', {
        'a': u(3, 4), 'b': u(3, 4)}, F64),
    'mean_axis': ('F.mean(a, axis=-1, keepdims=True)', {'a': u(3, 4)}, F64),
    'prod_axis': ('F.prod(a, axis=1, keepdims=True)', {'a': u(3, 4)}, F64),
    'prod_all': ('F.prod(a)', {'a': u(2, 3)}, F64),
    'squared_difference': ('F.squared_difference(a, b)', {
        'a': u(3, 4), 'b': u(3, 4)}, F64),
    'tensordot': ('F.tensordot(a, b, axes=([1, 2], [0, 1]))', {
        'a': u(2, 3, 4), 'b': u(3, 4, 2)}, F64),
    'tensordot_int': ('F.tensordot(a, b, axes=1)', {
        'a': u(2, 3), 'b': u(3, 4)}, F64),
    'reductions_negative_axes': (
        '(F.logsumexp(a, axis=-2), F.mean(a, axis=(-1, 0)), '
        'F.prod(a, axis=(-3, -1)), F.max(a, keepdims=True), '
        'F.average(a, axis=-1), F.cumprod(a))', {
            'a': u(2, 3, 4)}, F64),
    'average_weights_axis0': ('F.average(a, axis=0, weights=w)', {
        'a': u(3, 4), 'w': u(3, low=0.5)}, F64),
    'argmax_negative_axis': ('F.argmax(a, axis=-2) + F.argmin(a, axis=0)', {
        'a': u(3, 4)}, F64, 0),
    'sum_f16': ('F.sum(a, axis=1)', {'a': u(3, 4)}, F16),
    'mean_exp_f16': ('F.mean(F.exp(a), axis=0)', {'a': u(3, 4)}, F16),
    'matmul_f16': ('F.matmul(a, b)', {'a': u(3, 4), 'b': u(4, 2)}, F16),
    'sparse_matmul': ('F.sparse_matmul(to_coo(s), b, transb=True)', {
        's': c(3, 4, dtype='sparse'), 'b': u(2, 4)}, F64),
    'sparse_matmul_transa': ('F.sparse_matmul(a, to_coo(s), transa=True)', {
        'a': u(2, 3), 's': c(2, 4, dtype='sparse')}, F64),
    # --- array manipulation --------------------------------------------------
    'as_strided': ('F.as_strided(a, (3, 2), (1, 1))', {'a': u(4)}, F64),
    'as_strided_offset': ('F.as_strided(a, (2, 2), (2, 1), 1)', {
        'a': u(6)}, F64),
    'concat_axis': ('F.concat([a, b], axis=0)', {'a': u(2, 3), 'b': u(1, 3)},
                    F64),
    'copy': ('F.copy(a, -1)', {'a': u(3, 4)}, F64),
    'depth2space': ('F.depth2space(a, 2)', {'a': u(1, 8, 2, 3)}, F64),
    'space2depth': ('F.space2depth(a, 2)', {'a': u(1, 2, 4, 6)}, F64),
    'diagonal': ('F.diagonal(a, offset=1, axis1=2, axis2=0)', {
        'a': u(3, 2, 4)}, F64),
    'stacks': ('F.dstack([a, b]) + F.hstack([a, b])[:, :1, None] '
               '+ F.vstack([a, b])[None, :2, :, None]', {
                   'a': u(2, 3), 'b': u(2, 3)}, F64),
    'stack_axis': ('F.stack([a, b], axis=-1)', {'a': u(2, 3), 'b': u(2, 3)},
                   F64),
    'expand_squeeze': ('F.squeeze(F.expand_dims(a, 1), axis=1) '
                       '+ F.squeeze(b)', {'a': u(3, 4), 'b': u(3, 1, 4)},
                       F64),
    'flatten': ('F.flatten(a)', {'a': u(2, 3)}, F64),
    'flips': ('F.flip(a, 1) + F.fliplr(a) * F.flipud(a)', {'a': u(3, 4)},
              F64),
    'im2col': ('F.im2col(a, 3, stride=2, pad=1, cover_all=True, dilate=1)',
               {'a': u(1, 2, 5, 4)}, F64),
    'im2col_dilate': ('F.im2col(a, (2, 3), dilate=2)',
                      {'a': u(1, 2, 5, 6)}, F64),
    'moveaxis': ('F.moveaxis(a, (0, 1), (2, 0))', {'a': u(2, 3, 4)}, F64),
    'rollaxis': ('F.rollaxis(a, 2, 1)', {'a': u(2, 3, 4)}, F64),
    'swapaxes': ('F.swapaxes(a, 0, 2)', {'a': u(2, 3, 4)}, F64),
    'pad_constant': ('F.pad(a, ((1, 0), (2, 1)), "constant", '
                     'constant_values=1.5)', {'a': u(3, 4)}, F64),
    'pad_edge': ('F.pad(a, ((0, 1), (2, 0)), "edge")', {'a': u(3, 4)}, F64),
    'pad_reflect': ('F.pad(a, 1, "reflect")', {'a': u(3, 4)}, F64),
    'tile_int': ('F.tile(a, 2)', {'a': u(2, 3)}, F64),
    'cast_f16': ('F.cast(a, "float16")', {'a': u(2, 3)}, F32),
    'pad_sequence': ('F.pad_sequence([a, b], length=4, padding=-1)', {
        'a': u(3, 2), 'b': u(1, 2)}, F64),
    'permutate': ('F.permutate(a, p, axis=1, inv=True)', {
        'a': u(2, 3), 'p': c(3, dtype='perm')}, F64),
    'repeat': ('F.repeat(a, (1, 0, 2), axis=1)', {'a': u(2, 3)}, F64),
    'repeat_flat': ('F.repeat(a, 2)', {'a': u(2, 3)}, F64),
    'resize_images': ('F.resize_images(a, (5, 3))', {'a': u(1, 2, 3, 4)},
                      F32),
    'resize_images_nearest': (
        'F.resize_images(a, (5, 3), mode="nearest")', {
            'a': u(1, 2, 3, 4)}, F32),
    'resize_images_corners': (
        'F.resize_images(a, (5, 7), align_corners=False)', {
            'a': u(1, 2, 3, 4)}, F32),
    'scatter_add': ('F.scatter_add(a, (slice(None), [0, 2, 0]), b)', {
        'a': u(2, 4), 'b': u(2, 3)}, F64),
    'select_item': ('F.select_item(a, t)', {
        'a': u(3, 4), 't': c(3, low=0, high=4, dtype='int32')}, F64),
    'separate': ('F.separate(a, axis=1)', {'a': u(2, 3)}, F64),
    'spatial_transformer_grid': ('F.spatial_transformer_grid(t, (3, 4))', {
        't': u(2, 2, 3)}, F64),
    'spatial_transformer': (
        'F.spatial_transformer_sampler(x, '
        'F.spatial_transformer_grid(t, (3, 4)))', {
            'x': u(2, 2, 4, 5), 't': u(2, 2, 3, low=-0.7, high=0.7)}, F64, 1),
    'split_axis': ('F.split_axis(a, [1, 3], axis=1)', {'a': u(2, 4)}, F64),
    'split_sections': ('F.split_axis(a, 2, axis=0, force_tuple=False)', {
        'a': u(4, 3)}, F64),
    'tile': ('F.tile(a, (2, 1, 2))', {'a': u(2, 3)}, F64),
    'transpose_sequence': ('F.transpose_sequence([a, b])', {
        'a': u(3, 2), 'b': u(1, 2)}, F64),
    'where': ('F.where(m, a, b)', {
        'm': c(3, 4, low=0, high=2, dtype='bool'), 'a': u(3, 4),
        'b': u(3, 4)}, F64),
    'array_defaults': (
        'F.concat([F.transpose(a), F.expand_dims(F.sum(a, axis=0), -1)], '
        'axis=-1)', {'a': u(2, 3)}, F64),
    'split_axis_edges': ('F.split_axis(a, [0, 2, 2, 4], axis=-1)', {
        'a': u(2, 4)}, F64),
    'squeeze_tuple_keepdims': ('F.squeeze(F.sum(a, axis=(0, 2), '
                               'keepdims=True), axis=(0, 2))', {
                                   'a': u(2, 3, 4)}, F64),
    'pad_sequence_auto': ('F.pad_sequence([a, b, c])', {
        'a': u(2, 3), 'b': u(4, 3), 'c': u(1, 3)}, F64),
    'separate_default': ('F.separate(a)', {'a': u(2, 3)}, F64),
    'reshape_infer': ('F.reshape(a, (-1, 2))', {'a': u(2, 3, 2)}, F64),
    'flatten_swapaxes_negative': ('F.swapaxes(a, -1, -3) + 0', {
        'a': u(2, 3, 4)}, F64),
    'sum_keepdims_all': ('F.sum(a, keepdims=True) * F.mean(a)', {
        'a': u(2, 3)}, F64),
    'max_tuple_axis': ('F.max(a, axis=(0, 2)) - F.min(a, axis=-1)[0]', {
        'a': u(2, 3, 4)}, F64),
    'argmax_flat': ('F.argmax(a) + F.argmin(a, axis=-1)[0]', {
        'a': u(2, 3)}, F64, 0),
    'einsum_ellipsis': ('F.einsum("...ij,...jk->...ik", a, b)', {
        'a': u(2, 3, 4), 'b': u(2, 4, 2)}, F64),
    'tensordot_outer': ('F.tensordot(a, b, axes=0)', {
        'a': u(2, 3), 'b': u(3)}, F64),
    'matmul_vectors': ('F.matmul(a, b)', {'a': u(4), 'b': u(4)}, F64),
    'misc_defaults': ('F.cumsum(a, axis=-1) + F.flip(a, -1) '
                      '+ F.permutate(a, p, axis=1) '
                      '+ F.repeat(a[:, :2], 2, axis=1)', {
                          'a': u(3, 4), 'p': c(4, dtype='perm')}, F64),
    'diagonal_default': ('F.diagonal(a)', {'a': u(3, 4)}, F64),
    'where_broadcast': ('F.where(m, a, b)', {
        'm': c(3, 1, low=0, high=2, dtype='bool'), 'a': u(3, 4),
        'b': u(3, 4)}, F64),
    'spatial_pyramid_pooling_uneven': (
        'F.spatial_pyramid_pooling_2d(x, 2, pooling="max")', {
            'x': u(1, 2, 7, 9)}, F64),
    'resize_images_to_one': ('F.resize_images(a, (1, 3))', {
        'a': u(1, 2, 3, 4)}, F32),
    'upsampling_2d_stride': (
        'F.upsampling_2d(x, F.max_pooling_2d(m, 3, stride=2, pad=1, '
        'return_indices=True)[1], 3, stride=2, pad=1, outsize=(5, 6))', {
            'x': u(1, 2, 3, 4), 'm': c(1, 2, 5, 6)}, F64),
    'unpooling_2d_pad': ('F.unpooling_2d(x, 2, pad=1)', {
        'x': u(1, 2, 3, 3)}, F64),
    'average_pooling_1d_ignore': (
        'F.average_pooling_1d(x, 3, pad=1, pad_value=None)', {
            'x': u(2, 2, 6)}, F64),
    'max_pooling_1d_nocover': (
        'F.max_pooling_1d(x, 3, pad=1, cover_all=False)', {
            'x': u(2, 2, 6)}, F64),
    'average_pooling_ignore_shared_gy': (
        'F.average_pooling_1d(x, 3, pad=1, pad_value=None) + x[:, :, ::3]',
        {'x': u(2, 2, 6)}, F64),
    'average_pooling_3d_ignore': (
        'F.average_pooling_3d(x, 2, stride=1, pad=1, pad_value=None)', {
            'x': u(1, 1, 3, 3, 2)}, F64),
    'roi_pooling_2d_outside': ('F.roi_pooling_2d(x, r, 2, 2, 0.25)', {
        'x': u(2, 2, 4, 4), 'r': c(3, 5, dtype='roi')}, F64),
    'linear_flatten': ('F.linear(x, w, b)', {
        'x': u(2, 3, 2), 'w': u(4, 6), 'b': u(4)}, F64),
    'lstm_shrinking_batch': ('F.lstm(c, x)', {'c': u(3, 2), 'x': u(2, 8)},
                             F64),
    'tree_lstm_three': ('F.tree_lstm(c1, c2, c3, x)', {
        'c1': u(2, 2), 'c2': u(2, 2), 'c3': u(2, 2), 'x': u(2, 12)}, F64, 1),
    'n_step_birnn_two_layers': (
        'F.n_step_birnn(2, 0.0, h, [[a[0], a[1]], [a[2], a[3]], '
        '[b[0], a[4]], [b[1], a[5]]], [[c[0], c[1]], [c[2], c[3]], '
        '[c[4], c[5]], [c[6], c[7]]], [x0, x1, x2], activation="relu")', {
            'h': u(4, 3, 3), 'a': u(6, 3, 3), 'b': u(2, 3, 6),
            'c': u(8, 3), 'x0': u(3, 3), 'x1': u(2, 3), 'x2': u(1, 3)},
        F64),
    'argument_forms': (
        '(F.reshape(a, [2, -1]), F.transpose(a, [1, 0]), F.tile(a, (1, 2)), '
        'F.broadcast_to(a[:1], [3, 2]), F.repeat(a, (1, 2, 0), axis=0), '
        'F.split_axis(a, numpy.array([1]), 1), F.cast(a, numpy.float32), '
        'F.concat((a, a)), F.stack((a, a)), '
        'F.maximum(a, a * 0.5), F.clip(a, -1, 1.0))', {'a': u(3, 2)}, F64),
    'int64_labels': (
        '(F.embed_id(t, w), F.select_item(x, t), '
        'F.softmax_cross_entropy(x, t), F.hinge(x, t), '
        'F.contrastive(x, w[:3], t % 2))', {
            't': c(3, low=0, high=3, dtype='int64'), 'w': u(3, 3),
            'x': u(3, 3)}, F64, 1),
    'int64_labels_metrics': (
        '(F.accuracy(x, t), F.classification_summary(x, t))', {
            't': c(3, low=0, high=3, dtype='int64'), 'x': u(3, 3)}, F64, 0),
    # --- connection ----------------------------------------------------------
    'bilinear': ('F.bilinear(e1, e2, w, v1, v2, b)', {
        'e1': u(2, 3), 'e2': u(2, 4), 'w': u(3, 4, 2), 'v1': u(3, 2),
        'v2': u(4, 2), 'b': u(2)}, F32),
    'bilinear_nobias': ('F.bilinear(e1, e2, w)', {
        'e1': u(2, 3), 'e2': u(2, 4), 'w': u(3, 4, 2)}, F32),
    # Chainer 7.8.1 cannot differentiate a convolution's input gradient
    # again with respect to W (Deconvolution2DFunction._set_cover_all gets
    # Variables for shapes): second order through grad/w only.
    'convolution_1d': ('F.convolution_1d(x, w, b, stride=2, pad=1)', {
        'x': u(2, 2, 7), 'w': u(3, 2, 3), 'b': u(3)}, F64, ('w',)),
    'convolution_2d': (
        'F.convolution_2d(x, w, b, stride=(2, 1), pad=(1, 2), '
        'cover_all=True)', {
            'x': u(2, 2, 6, 5), 'w': u(3, 2, 3, 2), 'b': u(3)}, F64, ('w',)),
    'convolution_2d_groups': (
        'F.convolution_2d(x, w, stride=1, pad=1, dilate=2, groups=2)', {
            'x': u(1, 4, 5, 5), 'w': u(6, 2, 2, 3)}, F64, ('w',)),
    'convolution_3d': ('F.convolution_3d(x, w, b, pad=1)', {
        'x': u(1, 2, 3, 4, 3), 'w': u(2, 2, 2, 2, 2), 'b': u(2)}, F64, ('w',)),
    'convolution_nd': ('F.convolution_nd(x, w, stride=(1, 2), dilate=(2, 1))',
                       {'x': u(1, 2, 5, 5), 'w': u(3, 2, 2, 2)}, F64, ('w',)),
    'convolution_2d_f32': ('F.convolution_2d(x, w, b)', {
        'x': u(2, 2, 4, 4), 'w': u(3, 2, 3, 3), 'b': u(3)}, F32, ('w',)),
    'deconvolution_1d': ('F.deconvolution_1d(x, w, b, stride=2, pad=1)', {
        'x': u(2, 3, 4), 'w': u(3, 2, 3), 'b': u(2)}, F64),
    'deconvolution_2d_outsize': (
        'F.deconvolution_2d(x, w, b, stride=2, pad=1, outsize=(6, 8))', {
            'x': u(1, 3, 3, 4), 'w': u(3, 2, 3, 3), 'b': u(2)}, F64),
    'deconvolution_2d_groups': (
        'F.deconvolution_2d(x, w, stride=(1, 2), dilate=2, groups=2)', {
            'x': u(1, 4, 3, 3), 'w': u(4, 1, 2, 2)}, F64),
    'deconvolution_3d': ('F.deconvolution_3d(x, w, stride=2)', {
        'x': u(1, 2, 2, 3, 2), 'w': u(2, 2, 2, 2, 2)}, F64),
    'deconvolution_nd': ('F.deconvolution_nd(x, w, b, pad=1, outsize=(5,))',
                         {'x': u(1, 2, 4), 'w': u(2, 3, 4), 'b': u(3)},
                         F64),
    # as the convolutions: Chainer fails on the second order through x
    'depthwise_convolution_2d': (
        'F.depthwise_convolution_2d(x, w, b, stride=2, pad=1)', {
            'x': u(1, 2, 5, 5), 'w': u(2, 2, 3, 3), 'b': u(4)}, F64, ('w',)),
    'dilated_convolution_2d': (
        'F.dilated_convolution_2d(x, w, b, pad=1, dilate=2, cover_all=True)',
        {'x': u(1, 2, 6, 5), 'w': u(3, 2, 2, 2), 'b': u(3)}, F64, ('w',)),
    'deformable_convolution_2d_sampler': (
        'F.deformable_convolution_2d_sampler(x, off, w, b, pad=1)', {
            'x': u(1, 2, 4, 4), 'off': u(1, 18, 4, 4, low=-0.4, high=0.4),
            'w': u(3, 2, 3, 3), 'b': u(3)}, F64, 1),
    'embed_id': ('F.embed_id(t, w)', {
        't': c(2, 3, low=0, high=4, dtype='int32'), 'w': u(4, 3)}, F64),
    'embed_id_ignore': ('F.embed_id(t, w, ignore_label=-1)', {
        't': c(2, 3, low=-1, high=4, dtype='int32'), 'w': u(4, 3)}, F64),
    'linear': ('F.linear(x, w, b)', {'x': u(3, 4), 'w': u(2, 4), 'b': u(2)},
               F64),
    'linear_batch_axes': ('F.linear(x, w, n_batch_axes=2)', {
        'x': u(2, 3, 4), 'w': u(5, 4)}, F64),
    'linear_f16': ('F.linear(x, w, b)', {
        'x': u(3, 4), 'w': u(2, 4), 'b': u(2)}, F16),
    'local_convolution_2d': ('F.local_convolution_2d(x, w, b, stride=2)', {
        'x': u(2, 2, 5, 5), 'w': u(3, 2, 2, 2, 2, 3), 'b': u(3, 2, 2)},
        F64, 1),
    'shift': ('F.shift(a, ksize=3, dilate=2)', {'a': u(1, 9, 4, 5)}, F64),
    'n_step_lstm': (
        f'F.n_step_lstm(2, 0.0, h, c, {lists("w", 2, 8)}, '
        f'{lists("b", 2, 8)}, [x0, x1])', dict(
            h=u(2, 2, 3), c=u(2, 2, 3), w=u(16, 3, 3), **RNN_INPUTS), F64),
    'n_step_bilstm': (
        f'F.n_step_bilstm(1, 0.0, h, c, {lists("w", 2, 8)}, '
        f'{lists("b", 2, 8)}, [x0, x1])', dict(
            h=u(2, 2, 3), c=u(2, 2, 3), w=u(16, 3, 3), **RNN_INPUTS), F64),
    'n_step_gru': (
        f'F.n_step_gru(1, 0.0, h, {lists("w", 1, 6)}, {lists("b", 1, 6)}, '
        '[x0, x1])', dict(h=u(1, 2, 3), w=u(6, 3, 3), **RNN_INPUTS), F64),
    'n_step_bigru': (
        f'F.n_step_bigru(1, 0.0, h, {lists("w", 2, 6)}, '
        f'{lists("b", 2, 6)}, [x0, x1])', dict(
            h=u(2, 2, 3), w=u(12, 3, 3), **RNN_INPUTS), F64),
    'n_step_rnn_relu': (
        'F.n_step_rnn(2, 0.0, h, [[w[0], w[1]], [w[2], w[3]]], '
        '[[b[0], b[1]], [b[2], b[3]]], [x0, x1], activation="relu")', {
            'h': u(2, 2, 3), 'w': u(4, 3, 3), 'b': u(4, 3), 'x0': u(2, 3),
            'x1': u(1, 3)}, F64),
    'n_step_birnn': (
        'F.n_step_birnn(1, 0.0, h, [[w[0], w[1]], [w[2], w[3]]], '
        '[[b[0], b[1]], [b[2], b[3]]], [x0, x1])', {
            'h': u(2, 2, 3), 'w': u(4, 3, 3), 'b': u(4, 3), 'x0': u(2, 3),
            'x1': u(1, 3)}, F64),
    # --- evaluation ----------------------------------------------------------
    'accuracy_ignore': ('F.accuracy(y, t, ignore_label=0)', {
        'y': u(6, 3), 't': c(6, low=0, high=3, dtype='int32')}, F64, 0),
    'binary_accuracy': ('F.binary_accuracy(y, t)', {
        'y': u(6), 't': c(6, low=-1, high=2, dtype='int32')}, F64, 0),
    'classification_summary': (
        'F.classification_summary(y, t, label_num=4, beta=2.0)', {
            'y': u(8, 4), 't': c(8, low=-1, high=4, dtype='int32')}, F64, 0),
    'precision_recall_f1': (
        'F.precision(y, t)[0] + F.recall(y, t)[0] + F.f1_score(y, t)[0]', {
            'y': u(8, 3), 't': c(8, low=0, high=3, dtype='int32')}, F64, 0),
    'r2_score_raw': ('F.r2_score(p, t, multioutput="raw_values")', {
        'p': u(5, 2), 't': c(5, 2)}, F64, 0),
    'r2_score': ('F.r2_score(p, t)', {'p': u(5, 2), 't': c(5, 2)}, F64, 0),
    'accuracy_spatial': ('F.accuracy(y, t)', {
        'y': u(2, 3, 4), 't': c(2, 4, low=0, high=3, dtype='int32')}, F64, 0),
    'precision_recall_unseen_class': (
        'F.precision(y, t, label_num=4) + F.recall(y, t, label_num=4) '
        '+ F.f1_score(y, t, label_num=4)', {
            'y': u(8, 3), 't': c(8, low=0, high=3, dtype='int32')}, F64, 0),
    'binary_accuracy_all_ignored': ('F.binary_accuracy(y, t)', {
        'y': u(4), 't': c(4, low=-1, high=0, dtype='int32')}, F64, 0),
    # --- losses --------------------------------------------------------------
    'absolute_error': ('F.absolute_error(a, b)', {'a': u(3, 4), 'b': u(3, 4)},
                       F64),
    'squared_error': ('F.squared_error(a, b)', {'a': u(3, 4), 'b': u(3, 4)},
                      F64),
    'mean_errors': ('F.mean_absolute_error(a, b) '
                    '+ F.mean_squared_error(a, b)', {
                        'a': u(3, 4), 'b': u(3, 4)}, F64),
    'bernoulli_nll': ('F.bernoulli_nll(x, y)', {
        'x': c(3, 4, low=0, high=1), 'y': u(3, 4)}, F64),
    'bernoulli_nll_no': ('F.bernoulli_nll(x, y, reduce="no")', {
        'x': u(3, 4, low=0, high=1), 'y': u(3, 4)}, F64),
    'black_out': ('F.black_out(x, t, w, s)', {
        'x': u(3, 4), 't': c(3, low=0, high=5, dtype='int32'),
        'w': u(5, 4), 's': c(3, 2, low=0, high=5, dtype='int32')}, F64),
    'black_out_no': ('F.black_out(x, t, w, s, reduce="no")', {
        'x': u(3, 4), 't': c(3, low=0, high=5, dtype='int32'),
        'w': u(5, 4), 's': c(3, 2, low=0, high=5, dtype='int32')}, F64),
    'ctc': ('F.connectionist_temporal_classification([x0, x1, x2, x3], '
            't, 0)', {
                'x0': u(2, 3), 'x1': u(2, 3), 'x2': u(2, 3), 'x3': u(2, 3),
                't': c(2, 2, low=1, high=3, dtype='int32')}, F64, 1),
    'ctc_lengths_no': (
        'F.connectionist_temporal_classification([x0, x1, x2, x3], t, 0, '
        'input_length=il, label_length=ll, reduce="no")', {
            'x0': u(2, 3), 'x1': u(2, 3), 'x2': u(2, 3), 'x3': u(2, 3),
            't': c(2, 2, low=1, high=3, dtype='int32'),
            'il': c(2, low=3, high=5, dtype='int32'),
            'll': c(2, low=1, high=3, dtype='int32')}, F64, 1),
    'ctc_blank_2': (
        'F.connectionist_temporal_classification([x0, x1, x2, x3, x4], t, 2, '
        'reduce="no")', {
            'x0': u(2, 3), 'x1': u(2, 3), 'x2': u(2, 3), 'x3': u(2, 3),
            'x4': u(2, 3), 't': c(2, 3, low=0, high=2, dtype='int32')}, F64,
        1),
    'gaussian_bernoulli_mean': (
        'F.gaussian_nll(x, m, v, reduce="mean") '
        '+ F.bernoulli_nll(x, m, reduce="mean")', {
            'x': u(3, 4, low=0, high=1), 'm': u(3, 4), 'v': u(3, 4)}, F64),
    'contrastive': ('F.contrastive(a, b, y, margin=2.0)', {
        'a': u(4, 3), 'b': u(4, 3), 'y': c(4, low=0, high=2, dtype='int32')},
        F64),
    'contrastive_no': ('F.contrastive(a, b, y, reduce="no")', {
        'a': u(4, 3), 'b': u(4, 3), 'y': c(4, low=0, high=2, dtype='int32')},
        F64),
    'crf1d': ('F.crf1d(cost, [x0, x1, x2], [t[0], t[1], t[2][:1]])', {
        'cost': u(3, 3), 'x0': u(2, 3), 'x1': u(2, 3), 'x2': u(1, 3),
        't': c(3, 2, low=0, high=3, dtype='int32')}, F64),
    'crf1d_no': ('F.crf1d(cost, [x0, x1], [t[0], t[1]], reduce="no")', {
        'cost': u(3, 3), 'x0': u(2, 3), 'x1': u(2, 3),
        't': c(2, 2, low=0, high=3, dtype='int32')}, F64),
    'argmax_crf1d': ('F.argmax_crf1d(cost, [x0, x1, x2])', {
        'cost': u(3, 3), 'x0': u(2, 3), 'x1': u(2, 3), 'x2': u(1, 3)}, F64,
        0),
    'cross_covariance': ('F.cross_covariance(y, z)', {
        'y': u(4, 3), 'z': u(4, 2)}, F64),
    'cross_covariance_no': ('F.cross_covariance(y, z, reduce="no")', {
        'y': u(4, 3), 'z': u(4, 2)}, F64),
    'decov': ('F.decov(h)', {'h': u(4, 3)}, F64, 1),
    'decov_no': ('F.decov(h, reduce="no")', {'h': u(4, 3)}, F64, 1),
    'discriminative_loss': (
        'F.discriminative_margin_based_clustering_loss(e, l, 0.5, 1.5, 2, '
        'alpha=0.9, beta=1.1, gamma=0.01)', {
            'e': u(2, 2, 4, 4), 'l': c(2, 4, 4, low=0, high=3,
                                      dtype='int32')}, F64),
    'discriminative_loss_norm2': (
        'F.discriminative_margin_based_clustering_loss(e, l, 0.5, 1.5, 2, '
        'norm=2)', {
            'e': u(2, 2, 4, 4), 'l': c(2, 4, 4, low=0, high=3,
                                      dtype='int32')}, F64),
    'gaussian_kl_divergence': ('F.gaussian_kl_divergence(m, v)', {
        'm': u(3, 4), 'v': u(3, 4)}, F64),
    'gaussian_kl_divergence_mean': (
        'F.gaussian_kl_divergence(m, v, reduce="mean")', {
            'm': u(3, 4), 'v': u(3, 4)}, F64),
    'gaussian_nll': ('F.gaussian_nll(x, m, v)', {
        'x': u(3, 4), 'm': u(3, 4), 'v': u(3, 4)}, F64),
    'gaussian_nll_no': ('F.gaussian_nll(x, m, v, reduce="no")', {
        'x': u(3, 4), 'm': u(3, 4), 'v': u(3, 4)}, F64),
    'hinge': ('F.hinge(x, t)', {
        'x': u(4, 3), 't': c(4, low=0, high=3, dtype='int32')}, F64),
    'hinge_l2_no': ('F.hinge(x, t, norm="L2", reduce="no")', {
        'x': u(4, 3), 't': c(4, low=0, high=3, dtype='int32')}, F64, 1),
    'huber_loss': ('F.huber_loss(x, t, 1.0)', {'x': u(3, 4), 't': u(3, 4)},
                   F64),
    'huber_loss_no': ('F.huber_loss(x, t, 0.5, reduce="no")', {
        'x': u(3, 4), 't': u(3, 4)}, F64),
    'negative_sampling': (
        'F.negative_sampling(x, t, w, lambda shape: s.reshape(shape), 2)', {
            'x': u(3, 4), 't': c(3, low=0, high=5, dtype='int32'),
            'w': u(5, 4), 's': c(3, 3, low=0, high=5, dtype='int32')}, F64),
    'negative_sampling_no': (
        'F.negative_sampling(x, t, w, lambda shape: s.reshape(shape), 2, '
        'reduce="no")', {
            'x': u(3, 4), 't': c(3, low=0, high=5, dtype='int32'),
            'w': u(5, 4), 's': c(3, 3, low=0, high=5, dtype='int32')}, F64),
    'sigmoid_cross_entropy': ('F.sigmoid_cross_entropy(x, t)', {
        'x': u(3, 4), 't': c(3, 4, low=-1, high=2, dtype='int32')}, F64),
    'sigmoid_cross_entropy_nonorm': (
        'F.sigmoid_cross_entropy(x, t, normalize=False)', {
            'x': u(3, 4), 't': c(3, 4, low=-1, high=2, dtype='int32')}, F64),
    'sigmoid_cross_entropy_no': (
        'F.sigmoid_cross_entropy(x, t, reduce="no")', {
            'x': u(3, 4), 't': c(3, 4, low=-1, high=2, dtype='int32')}, F64),
    'softmax_cross_entropy': ('F.softmax_cross_entropy(x, t)', {
        'x': u(5, 3), 't': c(5, low=-1, high=3, dtype='int32')}, F64, 1),
    'softmax_cross_entropy_options': (
        'F.softmax_cross_entropy(x, t, normalize=False, class_weight=cw, '
        'ignore_label=2)', {
            'x': u(5, 3), 't': c(5, low=0, high=3, dtype='int32'),
            'cw': c(3, low=0.5, high=2)}, F64, 1),
    'softmax_cross_entropy_no': (
        'F.softmax_cross_entropy(x, t, reduce="no")', {
            'x': u(2, 3, 4), 't': c(2, 4, low=-1, high=3, dtype='int32')},
        F64, 1),
    'softmax_cross_entropy_double': (
        'F.softmax_cross_entropy(x, t, enable_double_backprop=True)', {
            'x': u(5, 3), 't': c(5, low=-1, high=3, dtype='int32')}, F64),
    'softmax_cross_entropy_soft': (
        'F.softmax_cross_entropy(x, F.softmax(t).array)', {
            'x': u(5, 3), 't': c(5, 3)}, F64, 1),
    'softmax_cross_entropy_f32': ('F.softmax_cross_entropy(x, t)', {
        'x': u(5, 3), 't': c(5, low=0, high=3, dtype='int32')}, F32, 1),
    'softmax_cross_entropy_kl': (
        'F.softmax_cross_entropy(x, F.softmax(t).array, reduce="no", '
        'soft_target_loss="kl-divergence")', {
            'x': u(5, 3), 't': c(5, 3)}, F64, 1),
    'softmax_cross_entropy_nocache': (
        'F.softmax_cross_entropy(x, t, cache_score=False)', {
            'x': u(5, 3), 't': c(5, low=0, high=3, dtype='int32')}, F64, 1),
    'softmax_cross_entropy_weights_no': (
        'F.softmax_cross_entropy(x, t, class_weight=cw, reduce="no")', {
            'x': u(5, 3), 't': c(5, low=-1, high=3, dtype='int32'),
            'cw': c(3, low=0.5, high=2)}, F64, 1),
    'softmax_cross_entropy_weights_double': (
        'F.softmax_cross_entropy(x, t, class_weight=cw, '
        'enable_double_backprop=True)', {
            'x': u(2, 3, 2), 't': c(2, 2, low=-1, high=3, dtype='int32'),
            'cw': c(3, low=0.5, high=2)}, F64),
    'sigmoid_cross_entropy_nonorm_ignored': (
        'F.sigmoid_cross_entropy(x, t, normalize=False) '
        '+ F.hinge(x, F.argmax(x, axis=1).array, norm="L2", reduce="mean")',
        {'x': u(3, 4), 't': c(3, 4, low=-1, high=2, dtype='int32')}, F64,
        1),
    'triplet': ('F.triplet(a, p, n, margin=1.5)', {
        'a': u(4, 3), 'p': u(4, 3), 'n': u(4, 3)}, F64),
    'triplet_no': ('F.triplet(a, p, n, reduce="no")', {
        'a': u(4, 3), 'p': u(4, 3), 'n': u(4, 3)}, F64),
    # --- normalization -------------------------------------------------------
    'batch_normalization': ('F.batch_normalization(x, g, b, eps=1e-3)', {
        'x': u(4, 3, 2), 'g': u(3), 'b': u(3)}, F64),
    'batch_normalization_axis': (
        'F.batch_normalization(x, g, b, axis=(0, 2))', {
            'x': u(4, 3, 2), 'g': u(3), 'b': u(3)}, F64),
    'batch_renormalization': (
        'F.batch_renormalization(x, g, b, 1.5, 0.3, running_mean=m, '
        'running_var=v)', {
            'x': u(4, 3), 'g': u(3), 'b': u(3), 'm': c(3),
            'v': c(3, low=0.5)}, F64, 1),
    'batch_normalization_running': (
        '(F.batch_normalization(x, g, b, running_mean=(rm := m.copy()), '
        'running_var=(rv := v.copy()), decay=0.7), rm, rv)', {
            'x': u(4, 3, 2), 'g': u(3), 'b': u(3), 'm': c(3),
            'v': c(3, low=0.5)}, F64),
    'batch_renormalization_update': (
        '(F.batch_renormalization(x, g, b, 1.2, 0.1, running_mean=(rm := '
        'm.copy()), running_var=(rv := v.copy()), decay=0.6, '
        'update_statistics=True), rm, rv)', {
            'x': u(5, 3), 'g': u(3), 'b': u(3), 'm': c(3),
            'v': c(3, low=0.5)}, F64, 1),
    'decorrelated_batch_normalization_running': (
        '(F.decorrelated_batch_normalization(x, groups=2, eps=1e-3, '
        'running_mean=(rm := m.copy()), running_projection=(rp := '
        'p.copy()), decay=0.8), rm, rp)', {
            'x': u(6, 4, 2), 'm': c(2, 2), 'p': c(2, 2, 2)}, F64, 1),
    'fixed_batch_normalization': (
        'F.fixed_batch_normalization(x, g, b, m, v, eps=1e-3)', {
            'x': u(4, 3, 2), 'g': u(3), 'b': u(3), 'm': u(3),
            'v': u(3, low=0.5)}, F64),
    'fixed_batch_normalization_axis': (
        'F.fixed_batch_normalization(x, g, b, m, v, axis=(0, 2))', {
            'x': u(4, 3, 2), 'g': u(3), 'b': u(3), 'm': u(3),
            'v': u(3, low=0.5)}, F64),
    'fixed_batch_renormalization': (
        'F.fixed_batch_renormalization(x, g, b, m, v)', {
            'x': u(4, 3), 'g': u(3), 'b': u(3), 'm': u(3),
            'v': u(3, low=0.5)}, F64),
    'decorrelated_batch_normalization': (
        'F.decorrelated_batch_normalization(x, groups=2)', {
            'x': u(6, 4)}, F64, 1),
    'fixed_decorrelated_batch_normalization': (
        'F.fixed_decorrelated_batch_normalization(x, m, p, groups=2)', {
            'x': u(6, 4), 'm': c(2, 2), 'p': c(2, 2, 2)}, F64, 1),
    'fixed_decorrelated_batch_normalization_mean': (
        'F.fixed_decorrelated_batch_normalization(x, m, p, groups=2)', {
            'x': u(6, 4), 'm': u(2, 2), 'p': u(2, 2, 2)}, F64, 1),
    'group_normalization': ('F.group_normalization(x, 2, g, b, eps=1e-3)', {
        'x': u(2, 4, 3), 'g': u(4), 'b': u(4)}, F64),
    'layer_normalization': ('F.layer_normalization(x, g, b, eps=1e-3)', {
        'x': u(3, 4), 'g': u(4), 'b': u(4)}, F64),
    'local_response_normalization': (
        'F.local_response_normalization(x, n=3, k=1.5, alpha=0.1, beta=0.6)',
        {'x': u(2, 5, 2, 2)}, F64, 1),
    'normalize': ('F.normalize(x, eps=1e-3, axis=0)', {'x': u(3, 4)}, F64),
    # --- pooling -------------------------------------------------------------
    'average_pooling_1d': ('F.average_pooling_1d(x, 3, stride=2, pad=1)', {
        'x': u(2, 2, 7)}, F64),
    'average_pooling_2d': ('F.average_pooling_2d(x, (2, 3), pad=1)', {
        'x': u(1, 2, 5, 6)}, F64),
    'average_pooling_3d': ('F.average_pooling_3d(x, 2)', {
        'x': u(1, 1, 4, 4, 4)}, F64),
    'average_pooling_nd_ignore': (
        'F.average_pooling_nd(x, 3, stride=2, pad=1, pad_value=None)', {
            'x': u(1, 2, 5, 6)}, F64),
    'max_pooling_1d': ('F.max_pooling_1d(x, 3, stride=2, pad=1)', {
        'x': u(2, 2, 7)}, F64),
    'max_pooling_2d': ('F.max_pooling_2d(x, 3, stride=2)', {
        'x': u(1, 2, 6, 7)}, F64),
    'max_pooling_2d_nocover': (
        'F.max_pooling_2d(x, 3, stride=2, pad=1, cover_all=False)', {
            'x': u(1, 2, 6, 7)}, F64),
    'max_pooling_3d': ('F.max_pooling_3d(x, 2, cover_all=False)', {
        'x': u(1, 1, 4, 5, 4)}, F64),
    'max_pooling_nd': ('F.max_pooling_nd(x, (2, 3), stride=(1, 2))', {
        'x': u(1, 2, 4, 5)}, F64),
    'roi_pooling_2d': ('F.roi_pooling_2d(x, r, 2, 3, 0.5)', {
        'x': u(2, 2, 6, 6), 'r': c(2, 5, dtype='roi')}, F64),
    'roi_max_pooling_2d': (
        'F.roi_max_pooling_2d(x, r, i, (2, 3), 0.5)', rois(2), F64),
    'roi_average_pooling_2d': (
        'F.roi_average_pooling_2d(x, r, i, 2, 0.5)', rois(2), F64),
    'roi_average_align_2d': (
        'F.roi_average_align_2d(x, r, i, (2, 3), 0.5, sampling_ratio=2)',
        rois(2), F32),
    'roi_max_align_2d': (
        'F.roi_max_align_2d(x, r, i, 2, 0.5, sampling_ratio=(2, 1))',
        rois(2), F32),
    'spatial_pyramid_pooling_2d': (
        'F.spatial_pyramid_pooling_2d(x, 3, pooling="max")', {
            'x': u(1, 2, 8, 8)}, F64),
    'max_pooling_2d_indices': (
        'F.max_pooling_2d(x, 2, stride=(2, 1), pad=1, return_indices=True)',
        {'x': u(1, 2, 4, 5)}, F64),
    'average_pooling_2d_f16': ('F.average_pooling_2d(x, 2)', {
        'x': u(1, 2, 4, 4)}, F16),
    'unpooling_1d': ('F.unpooling_1d(x, 2, outsize=(7,), cover_all=False)',
                     {'x': u(1, 2, 3)}, F64),
    'unpooling_2d': ('F.unpooling_2d(x, 3, stride=2, pad=1, cover_all=False)',
                     {'x': u(1, 2, 3, 3)}, F64),
    'unpooling_3d': ('F.unpooling_3d(x, 2)', {'x': u(1, 1, 2, 2, 2)}, F64),
    'unpooling_nd': ('F.unpooling_nd(x, (2, 3), outsize=(4, 7))', {
        'x': u(1, 2, 2, 3)}, F64),
    'upsampling_2d': (
        'F.upsampling_2d(x, F.max_pooling_2d(m, 2, return_indices=True)[1], '
        '2, outsize=(4, 5))', {'x': u(1, 2, 2, 3), 'm': c(1, 2, 4, 5)}, F64),
    # --- float32 and float16 variants ----------------------------------------
    'batch_normalization_f32': ('F.batch_normalization(x, g, b)', {
        'x': u(4, 3, 2), 'g': u(3), 'b': u(3)}, F32),
    'batch_normalization_f16': ('F.batch_normalization(x, g, b)', {
        'x': u(4, 3), 'g': u(3), 'b': u(3)}, F16),
    'layer_normalization_f32': ('F.layer_normalization(x, g, b)', {
        'x': u(3, 4), 'g': u(4), 'b': u(4)}, F32),
    'lstm_f32': ('F.lstm(c, x)', {'c': u(2, 3), 'x': u(2, 12)}, F32),
    'softmax_logsumexp_f32': ('F.softmax(a) * F.logsumexp(a, axis=0)', {
        'a': u(3, 4)}, F32),
    'special_f32': ('F.erf(a) + F.erfinv(a / 3) + F.ndtr(a) + F.log_ndtr(a) '
                    '+ F.lgamma(a + 3) + F.digamma(a + 3)', {
                        'a': u(3, 4)}, F32),
    'max_pooling_2d_f32': ('F.max_pooling_2d(x, 2)', {'x': u(1, 2, 4, 4)},
                           F32),
    'mean_squared_error_f16': ('F.mean_squared_error(a, b)', {
        'a': u(3, 4), 'b': u(3, 4)}, F16),
    'sigmoid_cross_entropy_f32': ('F.sigmoid_cross_entropy(x, t)', {
        'x': u(3, 4), 't': c(3, 4, low=0, high=2, dtype='int32')}, F32),
    'deconvolution_2d_f32': ('F.deconvolution_2d(x, w, b, stride=2)', {
        'x': u(1, 3, 3, 3), 'w': u(3, 2, 3, 3), 'b': u(2)}, F32),
    'linear_f32': ('F.linear(x, w, b)', {
        'x': u(3, 4), 'w': u(2, 4), 'b': u(2)}, F32),
    'softmax_f16': ('F.softmax(a) + F.log_softmax(a)', {'a': u(3, 4)}, F16),
    'logsumexp_f16': ('F.logsumexp(a, axis=1)', {'a': u(3, 4)}, F16),
    'convolution_2d_f16': ('F.convolution_2d(x, w, b, pad=1)', {
        'x': u(1, 2, 3, 3), 'w': u(2, 2, 2, 2), 'b': u(2)}, F16, ('w',)),
    'max_pooling_2d_f16': ('F.max_pooling_2d(x, 2)', {'x': u(1, 2, 4, 4)},
                           F16),
    'softmax_cross_entropy_f16': ('F.softmax_cross_entropy(x, t)', {
        'x': u(4, 3), 't': c(4, low=0, high=3, dtype='int32')}, F16, 1),
    'sigmoid_cross_entropy_f16': ('F.sigmoid_cross_entropy(x, t)', {
        'x': u(3, 4), 't': c(3, 4, low=0, high=2, dtype='int32')}, F16),
    'layer_normalization_f16': ('F.layer_normalization(x, g, b)', {
        'x': u(3, 4), 'g': u(4), 'b': u(4)}, F16),
    'elementwise_f16': ('F.exp(a) + F.log(a + 3) + F.erf(a) + F.tanh(a) '
                        '+ F.sqrt(a + 3)', {'a': u(3, 4)}, F16),
    'lstm_f16': ('F.lstm(c, x)', {'c': u(2, 3), 'x': u(2, 12)}, F16),
    'embed_id_f16': ('F.embed_id(t, w)', {
        't': c(4, low=0, high=3, dtype='int32'), 'w': u(3, 2)}, F16),
    'normalize_f16': ('F.normalize(a)', {'a': u(3, 4)}, F16),
    'cumsum_prod_f16': ('F.cumsum(a, axis=1) + F.prod(a, axis=1, '
                        'keepdims=True)', {'a': u(3, 4)}, F16),
    'accuracy_f16': ('F.accuracy(y, t)', {
        'y': u(6, 3), 't': c(6, low=0, high=3, dtype='int32')}, F16, 0),
    'average_pooling_2d_f32': ('F.average_pooling_2d(x, 3, 2, 1)', {
        'x': u(1, 2, 5, 5)}, F32),
    'gaussian_f32': ('F.gaussian(m, v, eps=e)', {
        'm': u(3, 4), 'v': u(3, 4), 'e': c(3, 4)}, F32),
    # --- ties, kinks and edges: the conventions at points of non-smoothness
    'max_pooling_2d_ties': (
        'F.max_pooling_2d(F.broadcast_to(x, (1, 2, 4, 4)), 2)', {
            'x': u(1, 2, 1, 4)}, F64),
    'max_min_ties': ('F.max(F.broadcast_to(a, (3, 4)), axis=0) '
                     '+ F.min(F.broadcast_to(a, (3, 4)))', {'a': u(4)}, F64),
    'argmax_ties': ('F.argmax(F.broadcast_to(a, (3, 4)), axis=0)', {
        'a': u(4)}, F64, 0),
    'maximum_ties': ('F.maximum(a, a * 1) + F.minimum(a, a * 1)', {
        'a': u(3)}, F64),
    'kinks_at_zero': ('F.relu(a - a) + F.absolute(a - a) + F.leaky_relu(a - a)'
                      ' + F.clipped_relu(a - a + 1.0, 1.0) + F.relu6(a - a)'
                      ' + F.elu(a - a) + F.hard_sigmoid(a - a + 2.5)'
                      ' + F.clip(a - a + 0.5, 0.5, 1.0)', {'a': u(3)}, F64),
    'huber_at_delta': ('F.huber_loss(x, x + 1.0, 1.0)', {'x': u(2, 3)},
                       F64),
    'roi_pooling_outside': ('F.roi_max_pooling_2d(x, r, i, 2, 0.25) '
                            '+ F.roi_average_pooling_2d(x, r, i, 2, 0.25)',
                            rois(3, size=4), F64, 1),
    'roi_align_outside': (
        'F.roi_average_align_2d(x, r, i, 2, 0.25, sampling_ratio=2) '
        '+ F.roi_max_align_2d(x, r, i, 2, 0.25, sampling_ratio=2)',
        rois(3, size=4), F32, 1),
    'roi_align_auto_ratio': (
        'F.roi_average_align_2d(x, r, i, (2, 3), 0.5) '
        '+ F.roi_max_align_2d(x, r, i, (2, 3), 0.5)', rois(2), F32, 1),
    'spatial_transformer_outside': (
        'F.spatial_transformer_sampler(x, g)', {
            'x': u(1, 2, 3, 4), 'g': u(1, 2, 4, 5, low=-1.4, high=1.4)},
        F64, 1),
    'softmax_cross_entropy_all_ignored': ('F.softmax_cross_entropy(x, t)', {
        'x': u(3, 4), 't': c(3, low=-1, high=0, dtype='int32')}, F64, 1),
    'sigmoid_cross_entropy_all_ignored': (
        'F.sigmoid_cross_entropy(x, t)', {
            'x': u(3, 4), 't': c(3, 4, low=-1, high=0, dtype='int32')}, F64),
    'accuracy_all_ignored': ('F.accuracy(y, t, ignore_label=-1)', {
        'y': u(3, 4), 't': c(3, low=-1, high=0, dtype='int32')}, F64, 0),
    'classification_summary_inferred': (
        'F.classification_summary(y, t)', {
            'y': u(8, 4), 't': c(8, low=0, high=3, dtype='int32')}, F64, 0),
    'r2_score_constant_true': ('F.r2_score(p, t * 0 + 1)', {
        'p': u(5, 2), 't': c(5, 2)}, F64, 0),
    'hinge_l1_mean': ('F.hinge(x, t, reduce="mean")', {
        'x': u(4, 3), 't': c(4, low=0, high=3, dtype='int32')}, F64, 1),
    'get_item_mixed': ('F.get_item(a, (Ellipsis, None, slice(1, 3), 0))', {
        'a': u(2, 3, 4)}, F64),
    'get_item_bool': ('a[m]', {
        'a': u(3, 4), 'm': c(3, 4, low=0, high=2, dtype='bool')}, F64),
    'n_step_lstm_in_size': (
        'F.n_step_lstm(1, 0.0, h, c, [[w0[i] for i in range(4)] '
        '+ [w1[i] for i in range(4)]], [[b[i] for i in range(8)]], '
        '[x0, x1, x2])', {
            'h': u(1, 3, 3), 'c': u(1, 3, 3), 'w0': u(4, 3, 2),
            'w1': u(4, 3, 3), 'b': u(8, 3), 'x0': u(3, 2), 'x1': u(2, 2),
            'x2': u(2, 2)}, F64),
    'local_response_normalization_default': (
        'F.local_response_normalization(x)', {'x': u(2, 7, 2, 2)}, F64, 1),
    'resize_images_down': ('F.resize_images(a, (2, 3))', {
        'a': u(1, 2, 5, 6)}, F32),
    'resize_images_nearest_corners': (
        'F.resize_images(a, (5, 7), mode="nearest", align_corners=False)', {
            'a': u(1, 2, 3, 4)}, F32),
    # --- zeros and extreme values --------------------------------------------
    'prod_cumprod_zeros': ('F.prod(a * m, axis=1) + F.cumprod(a * m, axis=1)'
                           '[:, -1] + F.prod(a * m * 0, axis=1)', {
                               'a': u(4, 3), 'm': c(4, 3, low=0, high=2,
                                                    dtype='zeros')}, F64),
    'normalize_zero_row': ('F.normalize(a * m)', {
        'a': u(3, 4), 'm': c(3, 1, low=0, high=2, dtype='zeros')}, F64),
    'softmax_large': ('F.softmax(a + 1000) + F.log_softmax(a - 1000)', {
        'a': u(3, 4)}, F64),
    # order 1: at this spread the second order is rounding noise of
    # 1 - exp(x - logsumexp) on both sides (1e-14 of the row's scale);
    # logsumexp_axis compares it
    'logsumexp_large': ('F.logsumexp(a * 400, axis=1)', {'a': u(3, 4)}, F64,
                        1),
    'softplus_large': ('F.softplus(a * 30, beta=3.0)', {'a': u(3, 4)}, F64),
    'sigmoid_cross_entropy_large': ('F.sigmoid_cross_entropy(x * 50, t)', {
        'x': u(3, 4), 't': c(3, 4, low=0, high=2, dtype='int32')}, F64),
    'special_tails': ('F.erfcx(a * 10) + F.log_ndtr(-a * a * 10) '
                      '+ F.ndtr(-a * a * 10) + F.erfc(a * a * 4)', {
                          'a': u(3, 4)}, F64),
    'gamma_negative': ('F.lgamma(a) + F.digamma(a)', {
        'a': u(3, 4, low=-2.9, high=-0.1)}, F64),
    'ndtri_tails': ('F.ndtri(a) + F.erfinv(a * 2 - 1) + F.erfcinv(a * 2)', {
        'a': u(3, 4, low=1e-6, high=1e-3)}, F64),
    'polygamma_zero_order': ('F.polygamma(n, a)', {
        'n': c(4, low=0, high=1, dtype='int32'), 'a': u(4, low=0.5)}, F64),
    'tiny_expm1_log1p': ('F.expm1(a * 1e-9) + F.log1p(a * 1e-9)', {
        'a': u(3, 4)}, F64),
    'fmod_negative': ('F.fmod(a, b)', {'a': u(3, 4, low=-5, high=5),
                                       'b': u(3, 4, low=-2, high=-0.5)},
                      F64),
    'arctan2_signs': ('F.arctan2(a * m, b)', {
        'a': u(3, 4), 'm': c(3, 4, low=0, high=2, dtype='zeros'),
        'b': u(3, 4)}, F64),
    # --- noise with pinned randomness ----------------------------------------
    # Drawn from numpy.random, seeded alike on both sides (see evaluate):
    # the same seed must give Chainer's noise.
    'gumbel_softmax_seeded': ('F.gumbel_softmax(a, tau=0.5, axis=1)', {
        'a': u(3, 4)}, F64),
    'dropout_seeded': ('F.dropout(a, 0.3)', {'a': u(3, 4)}, F64),
    'gaussian_seeded': ('F.gaussian(m, v)', {'m': u(3, 4), 'v': u(3, 4)},
                        F64),
    'rrelu_seeded': ('F.rrelu(a, 0.1, 0.4)', {'a': u(3, 4)}, F64),
    'simplified_dropconnect_seeded': (
        'F.simplified_dropconnect(x, w, b, 0.4)', {
            'x': u(3, 4), 'w': u(2, 4), 'b': u(2)}, F64),
    'dropout_mask': ('F.dropout(a, 0.4, mask=m)', {
        'a': u(3, 4), 'm': c(3, 4, low=0, high=2, dtype='mask')}, F64),
    'gaussian_eps': ('F.gaussian(m, v, eps=e)', {
        'm': u(3, 4), 'v': u(3, 4), 'e': c(3, 4)}, F64),
    'simplified_dropconnect_mask': (
        'F.simplified_dropconnect(x, w, b, 0.4, mask=m)', {
            'x': u(3, 4), 'w': u(2, 4), 'b': u(2),
            'm': c(3, 2, 4, low=0, high=2, dtype='mask')}, F64),
    'dropout_return_mask': ('F.dropout(a, 0.25, mask=m, return_mask=True)', {
        'a': u(3, 4), 'm': c(3, 4, low=0, high=2, dtype='mask')}, F64),
    'rrelu_return_r': ('F.rrelu(a, 0.2, 0.4, r=r, return_r=True)', {
        'a': u(3, 4), 'r': c(3, 4, low=0.2, high=0.4)}, F64),
    'simplified_dropconnect_samplewise': (
        'F.simplified_dropconnect(x, w, None, 0.4, mask=m, '
        'use_batchwise_mask=False)', {
            'x': u(3, 4), 'w': u(2, 4),
            'm': c(2, 4, low=0, high=2, dtype='mask')}, F64),
    'noise_in_test_mode': (
        'in_test_mode(lambda: (F.dropout(a), F.rrelu(a, 0.2, 0.4), '
        'F.simplified_dropconnect(a, w, b, train=False), '
        'F.n_step_gru(1, 0.5, h, [[w] * 6], [[b] * 6], [a[:2], '
        'a[2:]]), F.zoneout(h[0], a[:2], 0.5)))', {
            'a': u(3, 2), 'w': u(2, 2), 'b': u(2), 'h': u(1, 2, 2)}, F64),
    'zoneout_ratio_0_1': ('F.zoneout(h, x, 0.0) + F.zoneout(x, h, 1.0)', {
        'h': u(3, 4), 'x': u(3, 4)}, F64),
    # --- utility -------------------------------------------------------------
    'forget': ('F.forget(lambda a, b: F.sin(a) * b, a, b)', {
        'a': u(3, 4), 'b': u(3, 4)}, F64, 1),
}


def case_parts(case):
    """``(expression, specs, dtype, order)`` of a case of ``CASES``."""
    expression, specs, dtype, *order = CASES[case]
    return expression, specs, dtype, order[0] if order else 2


def draw(rng, specs, dtype):
    """The input arrays of one case, drawn from its specs with ``rng``."""
    return {name: _draw_one(rng, dtype, *spec)
            for name, spec in specs.items()}


def _draw_one(rng, dtype, shape, low, high, kind=None):
    if kind in ('int32', 'int64', 'bool'):
        return rng.randint(low, high, shape).astype(kind)
    if kind == 'zeros':  # a 0/1 mask that puts zeros into an input
        return rng.randint(low, high, shape).astype(dtype)
    if kind == 'perm':
        return rng.permutation(shape[0]).astype('int32')
    if kind == 'mask':
        # a dropout mask with its scale 1 / (1 - 0.4) folded in
        return (rng.randint(low, high, shape) / 0.6).astype(dtype)
    if kind == 'sparse':  # about half of the entries are zeros
        return (rng.uniform(low, high, shape)
                * rng.randint(0, 2, shape)).astype(dtype)
    if kind == 'roi':
        return _rois(rng, shape).astype(dtype)
    return rng.uniform(low, high, shape).astype(dtype)


def _rois(rng, shape):
    """Regions ``(y_min, x_min, y_max, x_max)`` inside a 12 x 12 image,
    led by a batch index when ``shape[1]`` is 5 (roi_pooling_2d's
    ``(index, x_min, y_min, x_max, y_max)``)."""
    start = rng.uniform(0, 5, (shape[0], 2))
    corners = numpy.hstack([start, start + rng.uniform(2, 6, start.shape)])
    if shape[1] == 4:
        return corners
    index = rng.randint(0, 2, (shape[0], 1))
    return numpy.hstack([index, corners])


def differentiable(specs):
    """The names of the differentiable inputs (``u`` specs), sorted."""
    return sorted(name for name, spec in specs.items() if len(spec) == 3)


def outputs_of(api, expression, specs, arrays):
    """The outputs of ``expression`` as a flat tuple of the API's
    Variables (the differentiable inputs wrapped as Variables) and the
    input Variables ``{name: Variable}``."""
    xs = {name: api.Variable(arrays[name]) for name in differentiable(specs)}
    scope = {'F': api.F, 'to_coo': api.to_coo, 'numpy': numpy,
             'in_test_mode': lambda thunk: _in_test_mode(api, thunk),
             **arrays, **xs}
    return _flat(eval(expression, scope)), xs


def _in_test_mode(api, thunk):
    """``thunk()`` with ``config.train`` False."""
    with api.using_config('train', False):
        return thunk()


def _flat(ys):
    if isinstance(ys, (tuple, list)):
        return tuple(y for part in ys for y in _flat(part))
    return (ys,)


def evaluate(api, case, arrays, grad_outputs, grad_grads):
    """Outputs, gradients and second-order gradients of one case.

    Args:
        api: a namespace with ``F``, ``Variable``, ``grad``, ``to_coo``
            and ``using_config``.
        case: a name of ``CASES``.
        arrays: ``{input name: array}``.
        grad_outputs: one array per floating output.
        grad_grads: ``{input name: array}`` for the differentiable inputs,
            the gradients of the first-order gradients.

    Returns:
        ``{key: array}`` with keys ``output/i``, and up to the case's
        order ``grad/name`` and ``grad2/name`` for the differentiable
        inputs (zeros where a gradient does not reach an input).
    """
    expression, specs, _, order = case_parts(case)
    # Noise functions draw from numpy.random: both sides draw alike.
    numpy.random.seed(zlib.crc32(case.encode()))
    ys, xs = outputs_of(api, expression, specs, arrays)
    results = {f'output/{i}': numpy.asarray(getattr(y, 'array', y))
               for i, y in enumerate(ys)}
    names = sorted(xs)
    if order == 0:
        return results
    floating = [y for y in ys if _has_creator(y)]
    gxs = api.grad(floating, [xs[n] for n in names],
                   [api.Variable(g) for g in grad_outputs],
                   enable_double_backprop=order not in (0, 1))
    reached = {n: g for n, g in zip(names, gxs) if g is not None}
    for name in names:
        results[f'grad/{name}'] = _array_or_zeros(reached.get(name),
                                                  arrays[name])
    if order == 1:
        return results
    second = dict.fromkeys(names)
    through = names if order == 2 else order
    differentiable = [(n, g) for n, g in reached.items()
                      if g.creator is not None and n in through]
    if differentiable:
        ggxs = api.grad([g for _, g in differentiable],
                        [xs[n] for n in names],
                        [api.Variable(grad_grads[n])
                         for n, _ in differentiable])
        second = dict(zip(names, ggxs))
    for name in names:
        results[f'grad2/{name}'] = _array_or_zeros(second[name],
                                                   arrays[name])
    return results


def grad_output_shapes(api, case, arrays):
    """``[(shape, dtype)]`` of the outputs that gradients flow from."""
    expression, specs, _, order = case_parts(case)
    if order == 0:
        return []
    ys, _ = outputs_of(api, expression, specs, arrays)
    return [(y.shape, y.dtype) for y in ys if _has_creator(y)]


def _has_creator(y):
    return getattr(y, 'creator', None) is not None


def _array_or_zeros(variable, like):
    if variable is None:
        return numpy.zeros_like(like)
    return numpy.asarray(variable.array)


def pack(case, arrays, grad_outputs, grad_grads):
    """The ``.npz`` entries of one case's inputs and gradients."""
    entries = {f'{case}/x/{name}': a for name, a in arrays.items()}
    entries.update({f'{case}/gy/{i}': g for i, g in enumerate(grad_outputs)})
    entries.update({f'{case}/ggx/{name}': g
                    for name, g in grad_grads.items()})
    return entries


def unpack(npz, case):
    """The inverse of :func:`pack`: arrays, grad_outputs, grad_grads."""
    parts = {'x': {}, 'gy': {}, 'ggx': {}}
    for key in npz:
        owner, kind, name = key.split('/')
        if owner == case:
            parts[kind][name] = npz[key]
    grad_outputs = [parts['gy'][str(i)] for i in range(len(parts['gy']))]
    return parts['x'], grad_outputs, parts['ggx']

# Cases kept out of the comparison: {case: why Kusari differs, on purpose
# or because Chainer 7.8.1 is wrong}.
KNOWN_DIFFERENCES = {
    'discriminative_loss_norm2':
        'Chainer 7.8.1 gives NaN gradients for norm=2 (the derivative of '
        'sqrt at the zero diagonal of the distance matrix of the cluster '
        'means); Kusari\'s are finite and match finite differences.',
    'fixed_decorrelated_batch_normalization_mean':
        'Chainer 7.8.1\'s gradient for mean is wrong (it disagrees with '
        'finite differences, Kusari\'s matches them) and the one for '
        'projection has the wrong shape (2, 6, 6) for (2, 2, 2).',
    'average_pooling_ignore_shared_gy':
        'Chainer 7.8.1\'s average pooling with pad_value=None divides its '
        'output gradient in place, so other users of the same gradient '
        '(here x[:, :, ::3] through the sum) get it divided too.',
    'pad_edge':
        'Chainer 7.8.1 crops the gradient as in constant mode; Kusari adds '
        'the gradients of the copies the edge padding makes (exact).',
    'pad_reflect':
        'As pad_edge: Chainer drops the gradients of the reflected copies.',
    'softmax_cross_entropy_kl':
        'Chainer 7.8.1 computes the KL divergence with log(t + 1e-7), an '
        'undocumented offset (here about 3e-7 per row); Kusari\'s is exact '
        '(0 log 0 = 0).',
}
