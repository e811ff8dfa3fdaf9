"""N-dimensional deconvolution (transposed convolution).

The transposed filter product of a convolution, then col2im: every input
element scatters ``W``-weighted copies into the output windows that a
convolution would read it from. Its gradients are a convolution (for x)
and the convolution filter gradient (for W), so it is differentiable to
every order.
"""
import math

from kusari.autograd import function_node
from kusari.autograd.functions.connection import _geometry
from kusari.autograd.functions.connection import convolution_nd
from kusari.autograd.utils import conv
from kusari.autograd.utils import int_tuples
from kusari.autograd.utils import type_check


class DeconvolutionND(function_node.FunctionNode):
    """y = W^T * x + b over ``ndim`` spatial axes, with channel groups.

    ``outsize`` is the tuple of output lengths, or None for the smallest
    (:func:`chainer.utils.get_deconv_outsize`).
    """

    _mixed = False  # W's dtype is not x's (see _mixed_dtypes)

    def __init__(self, ndim, stride=1, pad=0, outsize=None, dilate=1,
                 groups=1):
        self.ndim = ndim
        self.stride = _geometry.as_tuple(stride, ndim)
        self.pad = _geometry.as_tuple(pad, ndim)
        self.outsize = outsize
        self.dilate = _geometry.as_tuple(dilate, ndim)
        self.groups = groups

    def check_type_forward(self, in_types):
        x_type, w_type = _geometry.expect_x_and_w(
            in_types, self.ndim, self.groups, True)
        if self.outsize is not None:
            # The convolution this transposes must map outsize back onto
            # x's lengths, with or without cover_all.
            ksize = type_check.eval(w_type.shape)[2:]
            for i in range(self.ndim):
                geometry = (ksize[i], self.stride[i], self.pad[i])
                lower = conv.get_conv_outsize(
                    self.outsize[i], *geometry, d=self.dilate[i])
                upper = conv.get_conv_outsize(
                    self.outsize[i], *geometry, cover_all=True,
                    d=self.dilate[i])
                type_check.expect(
                    lower <= x_type.shape[2 + i],
                    x_type.shape[2 + i] <= upper)
        _geometry.expect_bias(in_types, w_type.shape[1] * self.groups)

    def forward(self, inputs):
        x, W = inputs[:2]
        self.retain_inputs((0, 1))
        ksize = W.shape[2:]
        outsize = self.outsize
        if outsize is None:
            outsize = tuple(
                conv.get_deconv_outsize(size, k, s, p, d=d)
                for size, k, s, p, d in zip(
                    x.shape[2:], ksize, self.stride, self.pad, self.dilate))
            if any(size <= 0 for size in outsize):
                raise ValueError(
                    f'deconvolution: the output of x {x.shape} and W '
                    f'{W.shape} would have lengths {outsize}')
        self._outsize = outsize
        in_g = x.shape[1] // self.groups
        batch_last = _geometry.batch_last(
            x.shape[-1], math.prod(W.shape[1:]), in_g)
        col = grouped_deconv(x, W, self.groups, batch_last)
        y = conv.col2im(col, self.stride, self.pad, outsize, self.dilate,
                        batch_last)
        return _geometry.outputs(self, y, inputs)

    def backward(self, indexes, grad_outputs):
        return _geometry.gradients(
            self, indexes, grad_outputs,
            lambda x, W, gy: convolution_nd.ConvolutionND(
                self.ndim, self.stride, self.pad, False, self.dilate,
                self.groups, x.shape[2:]).apply((gy, W))[0],
            lambda x, W, gy: convolution_nd.ConvolutionNDGradW(
                self, W.shape[2:]).apply((gy, x))[0])


def grouped_deconv(x, W, groups, batch_last=False):
    """Patches ``col[n, o, k, p] = sum_c W[c, o, k] x[n, c, p]`` within
    groups: one batched product of transposed ``(g, c/g, out/g K)``
    filters and ``(n, g, c/g, P)`` inputs; ``batch_last``: of ``(g, c/g,
    P n)`` inputs, giving ``col[o, k, p, n]``."""
    n, in_c = x.shape[:2]
    w_mat = W.reshape(groups, in_c // groups, -1).swapaxes(1, 2)
    channels = (W.shape[1] * groups,) + W.shape[2:]
    if batch_last:
        x_mat = _geometry.batch_to_back(x).reshape(groups, in_c // groups,
                                                   -1)
        col = _geometry.gemm(w_mat, x_mat)
        return col.reshape(channels + x.shape[2:] + (n,))
    x_mat = x.reshape(n, groups, in_c // groups, math.prod(x.shape[2:]))
    col = _geometry.gemm(w_mat, x_mat)
    return col.reshape((n,) + channels + x.shape[2:])


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


def deconvolution_1d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                     groups=1):
    """1-dimensional deconvolution: :func:`deconvolution_nd` for x ``(n,
    c, l)`` and W ``(c, out / groups, k)``."""
    _geometry.expect_spatial_ndim('deconvolution_1d', x, 1)
    return apply_deconvolution(DeconvolutionND, 'deconvolution_1d', x, W, b,
                               1, stride, pad, outsize, dilate, groups)


def deconvolution_3d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                     groups=1):
    """3-dimensional deconvolution: :func:`deconvolution_nd` for x ``(n,
    c, d, h, w)`` and W ``(c, out / groups, kd, kh, kw)``."""
    _geometry.expect_spatial_ndim('deconvolution_3d', x, 3)
    return apply_deconvolution(DeconvolutionND, 'deconvolution_3d', x, W, b,
                               3, stride, pad, outsize, dilate, groups)
