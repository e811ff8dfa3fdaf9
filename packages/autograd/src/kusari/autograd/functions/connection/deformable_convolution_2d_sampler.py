"""Deformable convolution: a convolution reading its input at learned
fractional offsets from the regular sampling grid."""
from kusari.array import backend
from kusari.autograd.functions.array.concat import concat
from kusari.autograd.functions.array.pad import pad as pad_array
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.array.spatial_transformer_sampler import \
    spatial_transformer_sampler
from kusari.autograd.functions.array.transpose import transpose
from kusari.autograd.functions.math.matmul import matmul
from kusari.autograd.utils import conv
from kusari.autograd.utils import int_tuples
from kusari.autograd.variable import as_variable
from kusari.autograd.utils import type_check


def _sampling_grid(offset, kh, kw, stride, pad, h, w):
    """Sampling points ``(n, 2, kh kw, P)`` in the normalized coordinates
    of :func:`spatial_transformer_sampler` (``-1`` and ``1`` are the
    centres of the corner pixels of the padded input)."""
    n, _, out_h, out_w = offset.shape
    xp = backend.get_array_module(offset.array)
    dtype = offset.dtype
    sy, sx = stride
    base_y = (xp.arange(kh, dtype=dtype)[:, None, None, None]
              + sy * xp.arange(out_h, dtype=dtype)[:, None])
    base_x = (xp.arange(kw, dtype=dtype)[None, :, None, None]
              + sx * xp.arange(out_w, dtype=dtype))
    shape = (1, kh * kw, out_h, out_w)
    base_x = xp.broadcast_to(base_x, (kh, kw, out_h, out_w)).reshape(shape)
    base_y = xp.broadcast_to(base_y, (kh, kw, out_h, out_w)).reshape(shape)
    k = kh * kw
    x_coord = offset[:, :k] + base_x
    y_coord = offset[:, k:] + base_y
    x_coord = x_coord * (2 / (w + 2 * pad[1] - 1)) - 1
    y_coord = y_coord * (2 / (h + 2 * pad[0] - 1)) - 1
    grid = concat((x_coord, y_coord), axis=1)
    return reshape(grid, (n, 2, k, out_h * out_w))


@type_check.checks_inputs
def deformable_convolution_2d_sampler(x, offset, W, b=None, stride=1,
                                      pad=0):
    """Deformable convolution (Dai et al., 2017).

    Filter tap ``(p, q)`` at output position ``(i, j)`` reads the padded
    input bilinearly at ``(i sy + p + offset_y, j sx + q + offset_x)``
    instead of ``(i sy + p, j sx + q)``; then the taps are combined by
    ``W`` and ``b`` as in :func:`convolution_2d`. Built from the spatial
    transformer sampler and a matrix product, differentiable in x,
    offset, W and b.

    Args:
        x: Variable or array ``(n, c, h, w)``, float.
        offset: ``(n, 2 kh kw, out_h, out_w)``: the x offsets of the
            ``kh kw`` taps (in row order), then their y offsets.
        W: Filter ``(out, c, kh, kw)``.
        b: Bias ``(out,)`` or None.
        stride: int or pair ``(sy, sx)``.
        pad: int or pair ``(ph, pw)``.

    Returns:
        Variable ``(n, out, out_h, out_w)``.
    """
    name = 'deformable_convolution_2d_sampler'
    stride = int_tuples.expand(name, 'stride', stride, 2, 1)
    pad = int_tuples.expand(name, 'pad', pad, 2, 0)
    x, offset, W = as_variable(x), as_variable(offset), as_variable(W)
    if x.dtype.kind != 'f' or offset.dtype != x.dtype:
        raise TypeError(
            f'{name}: x and offset must be float arrays of one dtype; got '
            f'{x.dtype} and {offset.dtype}')
    if x.ndim != 4 or W.ndim != 4 or x.shape[1] != W.shape[1]:
        raise ValueError(
            f'{name}: x must be (n, c, h, w) and W (out, c, kh, kw) with '
            f'the same c; got x {x.shape} and W {W.shape}')
    n, c, h, w = x.shape
    out_c, _, kh, kw = W.shape
    out_h = conv.get_conv_outsize(h, kh, stride[0], pad[0])
    out_w = conv.get_conv_outsize(w, kw, stride[1], pad[1])
    if offset.shape != (n, 2 * kh * kw, out_h, out_w):
        raise ValueError(
            f'{name}: offset must have shape {(n, 2 * kh * kw, out_h, out_w)}'
            f' for x {x.shape} and W {W.shape}; got {offset.shape}')
    grid = _sampling_grid(offset, kh, kw, stride, pad, h, w)
    x_pad = pad_array(x, ((0, 0), (0, 0), (pad[0],) * 2, (pad[1],) * 2),
                      'constant')
    taps = spatial_transformer_sampler(x_pad, grid)  # (n, c, kh kw, P)
    taps = reshape(transpose(taps, (0, 3, 1, 2)),
                   (n * out_h * out_w, c * kh * kw))
    y = matmul(taps, reshape(W, (out_c, c * kh * kw)), transb=True)
    y = transpose(reshape(y, (n, out_h, out_w, out_c)), (0, 3, 1, 2))
    if b is not None:
        y = y + reshape(b, (1, out_c, 1, 1))
    return y
