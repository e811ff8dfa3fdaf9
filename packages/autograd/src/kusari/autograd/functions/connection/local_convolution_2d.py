"""Locally connected two-dimensional layer: a convolution whose filter
differs at every output position."""
from kusari.autograd.functions.array.im2col import im2col
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.functions.array.transpose import transpose
from kusari.autograd.functions.math import _mixed_dtypes
from kusari.autograd.functions.math.matmul import matmul
from kusari.autograd.variable import as_variable
from kusari.autograd.utils import type_check


@type_check.checks_inputs
def local_convolution_2d(x, W, b=None, stride=1):
    """Locally connected (unshared) convolution, without padding.

    ``y[n, o, i, j] = sum_{c, p, q} W[o, i, j, c, p, q]
    x[n, c, i sy + p, j sx + q] + b[o, i, j]``. Built from patch
    extraction and one batched matrix product over the output positions,
    so it has gradients of every order.

    Args:
        x: Variable or array ``(n, c, h, w)``, float.
        W: Filter ``(out, out_h, out_w, c, kh, kw)``, float, where
            ``out_h = (h - kh) // sy + 1`` and ``out_w`` alike.
        b: Bias ``(out, out_h, out_w)`` of x's dtype, or None.
        stride: int or pair ``(sy, sx)``.

    Returns:
        Variable ``(n, out, out_h, out_w)`` of x's dtype.
    """
    x, W = as_variable(x), as_variable(W)
    if x.ndim != 4 or W.ndim != 6 or x.shape[1] != W.shape[3]:
        raise ValueError(
            f'local_convolution_2d: x must be (n, c, h, w) and W (out, '
            f'out_h, out_w, c, kh, kw) with the same c; got x {x.shape} and '
            f'W {W.shape}')
    out_c, out_h, out_w, _, kh, kw = W.shape
    col = im2col(x, (kh, kw), stride)
    if col.shape[2:] != (out_h, out_w):
        raise ValueError(
            f'local_convolution_2d: W is for {out_h} x {out_w} outputs, but '
            f'x {x.shape} with kernel {kh} x {kw} and stride {stride} gives '
            f'{col.shape[2]} x {col.shape[3]}')
    n, k = col.shape[:2]
    positions = out_h * out_w
    # (P, n, K) patches times (P, K, out) filters: one batched product.
    col = transpose(reshape(col, (n, k, positions)), (2, 0, 1))
    W = transpose(reshape(W, (out_c, positions, k)), (1, 0, 2))
    y = _mixed_dtypes.as_dtype_of(x, matmul(col, W, transb=True))
    y = reshape(transpose(y, (1, 2, 0)), (n, out_c, out_h, out_w))
    if b is not None:
        y = y + b
    return y
