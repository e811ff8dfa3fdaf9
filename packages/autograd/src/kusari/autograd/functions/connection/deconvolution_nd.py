"""N-dimensional deconvolution (transposed convolution).

The transposed filter product of a convolution, then col2im: every input
element scatters ``W``-weighted copies into the output windows that a
convolution would read it from. Its gradients are a convolution (for x)
and the convolution filter gradient (for W), so it is differentiable to
every order. The nodes are in ``_convolution_nodes``, beside the
convolution's.
"""
from kusari.autograd.functions.connection import _geometry
from kusari.autograd.functions.connection._convolution_nodes import (
    DeconvolutionND)
from kusari.autograd.utils import int_tuples
from kusari.autograd.utils import type_check


def apply_deconvolution(node_class, func_name, x, W, b, ndim, stride, pad,
                        outsize, dilate, groups):
    """Check the options, then apply ``node_class`` (a DeconvolutionND) to
    ``(x, W[, b])``."""
    if outsize is not None:
        outsize = int_tuples.expand(func_name, 'outsize', outsize, ndim, 1)
    stride, pad, dilate, groups = _geometry.expand_options(
        func_name, ndim, stride, pad, dilate, groups)
    node = node_class(ndim, stride, pad, outsize, dilate, groups)
    inputs = (x, W) if b is None else (x, W, b)
    return node.apply(inputs)[0]


@type_check.checks_inputs
def deconvolution_nd(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                     groups=1):
    """N-dimensional deconvolution (transposed convolution).

    The transpose of :func:`convolution_nd` with the same stride, pad and
    dilation: ``y[n, o, p * s + k * d - pad] += W[c, o, k] x[n, c, p]``,
    plus ``b[o]``. Output lengths are ``s (l - 1) + (k - 1) d + 1 - 2 pad``
    unless ``outsize`` gives them.

    Args:
        x: Variable or array ``(n, c, l_1, ..., l_N)``, float.
        W: Filter ``(c, out / groups, k_1, ..., k_N)``, float.
        b: Bias ``(out,)`` or None.
        stride: int or tuple of N ints.
        pad: int or tuple of N ints.
        outsize: None, or tuple of N output lengths.
        dilate: int or tuple of N ints.
        groups (int): Number of channel groups.

    Returns:
        Variable ``(n, out, o_1, ..., o_N)`` of x's dtype.
    """
    ndim = _geometry.spatial_ndim('deconvolution_nd', x)
    return apply_deconvolution(DeconvolutionND, 'deconvolution_nd', x, W, b,
                               ndim, stride, pad, outsize, dilate, groups)


@type_check.checks_inputs
def deconvolution_1d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                     groups=1):
    """1-dimensional deconvolution: :func:`deconvolution_nd` for x ``(n,
    c, l)`` and W ``(c, out / groups, k)``."""
    _geometry.expect_spatial_ndim('deconvolution_1d', x, 1)
    return apply_deconvolution(DeconvolutionND, 'deconvolution_1d', x, W, b,
                               1, stride, pad, outsize, dilate, groups)


@type_check.checks_inputs
def deconvolution_3d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                     groups=1):
    """3-dimensional deconvolution: :func:`deconvolution_nd` for x ``(n,
    c, d, h, w)`` and W ``(c, out / groups, kd, kh, kw)``."""
    _geometry.expect_spatial_ndim('deconvolution_3d', x, 3)
    return apply_deconvolution(DeconvolutionND, 'deconvolution_3d', x, W, b,
                               3, stride, pad, outsize, dilate, groups)
