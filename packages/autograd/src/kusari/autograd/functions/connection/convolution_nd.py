"""N-dimensional convolution, as im2col plus one batched matrix product.

The gradient of a convolution with respect to its input is a deconvolution
and with respect to its filter a :class:`ConvolutionNDGradW` node; both are
differentiable again, so convolutions have gradients of every order. The
nodes are in ``_convolution_nodes``, beside the deconvolution's.
"""
from kusari.autograd.functions.connection import _geometry
from kusari.autograd.functions.connection._convolution_nodes import (  # NOQA
    ConvolutionND, ConvolutionNDGradW)
from kusari.autograd.utils import type_check


def apply_convolution(node_class, func_name, x, W, b, ndim, stride, pad,
                      cover_all, dilate, groups):
    """Check the options, then apply ``node_class`` (a ConvolutionND) to
    ``(x, W[, b])``."""
    stride, pad, dilate, groups = _geometry.expand_options(
        func_name, ndim, stride, pad, dilate, groups)
    node = node_class(ndim, stride, pad, bool(cover_all), dilate, groups)
    inputs = (x, W) if b is None else (x, W, b)
    return node.apply(inputs)[0]


@type_check.checks_inputs
def convolution_nd(x, W, b=None, stride=1, pad=0, cover_all=False,
                   dilate=1, groups=1):
    """N-dimensional convolution.

    ``y[n, o, p] = sum_{c, k} W[o, c, k] x_pad[n, c, p * s + k * d] + b[o]``
    for every output position ``p``, where ``x_pad`` is x zero-padded by
    ``pad`` on each side. With ``groups`` = g the channels split into g
    groups, each convolved with its own ``out/g`` filters.

    Args:
        x: Variable or array ``(n, c, d_1, ..., d_N)``, float.
        W: Filter ``(out, c / groups, k_1, ..., k_N)``, float.
        b: Bias ``(out,)`` or None.
        stride: int or tuple of N ints.
        pad: int or tuple of N ints.
        cover_all (bool): Add output positions so that every input element
            is read (see :func:`chainer.utils.get_conv_outsize`).
        dilate: int or tuple of N ints: spacing of the filter taps.
        groups (int): Number of channel groups.

    Returns:
        Variable ``(n, out, out_1, ..., out_N)`` of x's dtype.
    """
    ndim = _geometry.spatial_ndim('convolution_nd', x)
    return apply_convolution(ConvolutionND, 'convolution_nd', x, W, b, ndim,
                             stride, pad, cover_all, dilate, groups)


@type_check.checks_inputs
def convolution_1d(x, W, b=None, stride=1, pad=0, cover_all=False,
                   dilate=1, groups=1):
    """1-dimensional convolution: :func:`convolution_nd` for x ``(n, c,
    l)`` and W ``(out, c / groups, k)``."""
    _geometry.expect_spatial_ndim('convolution_1d', x, 1)
    return apply_convolution(ConvolutionND, 'convolution_1d', x, W, b, 1,
                             stride, pad, cover_all, dilate, groups)


@type_check.checks_inputs
def convolution_3d(x, W, b=None, stride=1, pad=0, cover_all=False,
                   dilate=1, groups=1):
    """3-dimensional convolution: :func:`convolution_nd` for x ``(n, c, d,
    h, w)`` and W ``(out, c / groups, kd, kh, kw)``."""
    _geometry.expect_spatial_ndim('convolution_3d', x, 3)
    return apply_convolution(ConvolutionND, 'convolution_3d', x, W, b, 3,
                             stride, pad, cover_all, dilate, groups)
