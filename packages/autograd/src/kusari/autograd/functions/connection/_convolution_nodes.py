"""The nodes of N-dimensional convolution and deconvolution.

Each is the other's gradient: the gradient of a convolution with respect
to its input is a deconvolution, and with respect to its filter a
:class:`ConvolutionNDGradW`; the gradients of a deconvolution are a
convolution and the same filter gradient. All are differentiable again,
so both have gradients of every order. The public functions are in
``convolution_nd`` and ``deconvolution_nd``.
"""
import math

from kusari.autograd import function_node
from kusari.autograd.functions.connection import _geometry
from kusari.autograd.utils import conv
from kusari.autograd.utils import type_check


class ConvolutionND(function_node.FunctionNode):
    """y = W * x + b over ``ndim`` spatial axes, with channel groups.

    ``outsize`` fixes the output lengths (a gradient of a deconvolution
    needs the exact input shape back); by default they follow from
    ``cover_all``.
    """

    _mixed = False  # W's dtype is not x's (see _mixed_dtypes)

    def __init__(self, ndim, stride=1, pad=0, cover_all=False, dilate=1,
                 groups=1, outsize=None):
        self.ndim = ndim
        self.stride = _geometry.as_tuple(stride, ndim)
        self.pad = _geometry.as_tuple(pad, ndim)
        self.cover_all = cover_all
        self.dilate = _geometry.as_tuple(dilate, ndim)
        self.groups = groups
        self.outsize = outsize

    def check_type_forward(self, in_types):
        x_type, w_type = _geometry.expect_x_and_w(
            in_types, self.ndim, self.groups, False)
        if self.outsize is None:
            # The kernel must fit in the padded input: an output length of
            # at least one.
            for i in range(self.ndim):
                extra = self.stride[i] - 1 if self.cover_all else 0
                type_check.expect(
                    x_type.shape[2 + i] + (2 * self.pad[i] + extra)
                    >= (w_type.shape[2 + i] - 1) * self.dilate[i] + 1)
        _geometry.expect_bias(in_types, w_type.shape[0])

    def forward(self, inputs):
        x, W = inputs[:2]
        self.retain_inputs((0, 1))
        outsize = self.outsize or conv.outsizes(
            x.shape[2:], W.shape[2:], self.stride, self.pad, self.cover_all,
            self.dilate)
        y, self.col, self.batch_last = convolve(
            x, W, self.stride, self.pad, self.dilate, self.groups, outsize)
        return _geometry.outputs(self, y, inputs)

    def backward(self, indexes, grad_outputs):
        return _geometry.gradients(
            self, indexes, grad_outputs,
            lambda x, W, gy: DeconvolutionND(
                self.ndim, self.stride, self.pad, x.shape[2:], self.dilate,
                self.groups).apply((gy, W))[0],
            lambda x, W, gy: ConvolutionNDGradW(
                self, W.shape[2:], self.col, self.batch_last).apply(
                    (x, gy))[0])


def convolve(x, W, stride, pad, dilate, groups, outsize):
    """The convolution of ``x`` with ``W`` (no bias) to output lengths
    ``outsize``: im2col, then one batched product. Returns ``(y, col,
    batch_last)``: the patches and their layout, which the filter
    gradient can reuse."""
    batch_last = _geometry.batch_last(
        outsize[-1], math.prod(W.shape[1:]), W.shape[0] // groups)
    col = conv.im2col(x, W.shape[2:], stride, pad, 0, False, dilate,
                      outsize, batch_last)
    return grouped_conv(col, W, groups, batch_last), col, batch_last


def grouped_conv(col, W, groups, batch_last):
    """``y[n, o, ...] = sum W[o, c, k] col[n, c, k, ...]`` within groups:
    one batched product of ``(g, out/g, K)`` filters and ``(n, g, K, P)``
    patches, or with the patches ``batch_last`` of ``(g, K, P n)`` ones
    (then the batch axis is moved back to the front)."""
    out_c = W.shape[0]
    w_mat = W.reshape(groups, out_c // groups, -1)
    if batch_last:
        n = col.shape[-1]
        outsize = col.shape[1 + (col.ndim - 2) // 2:-1]
        col_mat = col.reshape(groups, w_mat.shape[2], -1)
        y = _geometry.gemm(w_mat, col_mat)
        return _geometry.batch_to_front(
            y.reshape((out_c,) + outsize + (n,)))
    n = col.shape[0]
    outsize = col.shape[2 + (col.ndim - 2) // 2:]
    col_mat = col.reshape(n, groups, w_mat.shape[2], math.prod(outsize))
    if w_mat.shape[1] == 1:  # one filter per group
        y = _geometry.einsum('gk,ngkp->ngp', w_mat[:, 0], col_mat)
    else:
        y = _geometry.gemm(w_mat, col_mat)
    return y.reshape((n, out_c) + outsize)


class ConvolutionNDGradW(function_node.FunctionNode):
    """The filter gradient of a convolution: gW = sum gy col(x)^T.

    ``node`` is the (de)convolution whose geometry it shares; ``col`` the
    patches of x if its forward already made them (``batch_last``: in
    that layout). Its gradients are a deconvolution (for x) and a
    convolution (for gy).
    """

    def __init__(self, node, ksize, col=None, batch_last=False):
        self.ndim = node.ndim
        self.stride = node.stride
        self.pad = node.pad
        self.dilate = node.dilate
        self.groups = node.groups
        self.ksize = tuple(ksize)
        self.col = col
        self.batch_last = batch_last

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'gy'))
        x_type, gy_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f', gy_type.dtype == x_type.dtype,
            x_type.ndim == self.ndim + 2, gy_type.ndim == self.ndim + 2,
            x_type.shape[0] == gy_type.shape[0])

    def forward(self, inputs):
        x, gy = inputs
        self.retain_inputs((0, 1))
        n, g, out_c = x.shape[0], self.groups, gy.shape[1]
        patch = x.shape[1] // g * math.prod(self.ksize)
        col = self.col
        if col is None:
            self.batch_last = _geometry.batch_last(
                gy.shape[-1], patch, out_c // g)
            col = conv.im2col(x, self.ksize, self.stride, self.pad, 0,
                              False, self.dilate, gy.shape[2:],
                              self.batch_last)
        self.col = None  # the patches are not needed once gW is computed
        # The product runs as gW^T = col gy^T (patches by positions, then
        # a W-sized transpose): 13 to 30 % faster with OpenBLAS than
        # gy col^T, as measured over six CNN layer shapes.
        if self.batch_last:
            # One product over the batch and positions together.
            gy_mat = _geometry.batch_to_back(gy).reshape(g, out_c // g, -1)
            col_mat = col.reshape(g, patch, -1)
            gW_t = _geometry.gemm(col_mat, gy_mat.swapaxes(1, 2))
        else:
            positions = math.prod(gy.shape[2:])
            gy_mat = gy.reshape(n, g, out_c // g, positions)
            col_mat = col.reshape(n, g, patch, positions)
            if out_c == g:  # one filter per group
                gW_t = _geometry.einsum(
                    'ngkp,ngp->gk', col_mat, gy_mat[:, :, 0])[..., None]
            else:
                gW_t = _geometry.gemm(
                    col_mat, gy_mat.swapaxes(2, 3)).sum(axis=0)
        return gW_t.swapaxes(1, 2).reshape(
            (out_c, x.shape[1] // g) + self.ksize),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(DeconvolutionND(
                self.ndim, self.stride, self.pad, x.shape[2:], self.dilate,
                self.groups).apply((gy, ggW))[0])
        if 1 in indexes:
            ret.append(ConvolutionND(
                self.ndim, self.stride, self.pad, False, self.dilate,
                self.groups, gy.shape[2:]).apply((x, ggW))[0])
        return ret


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
        # With stride 1 the transposed convolution is a convolution with
        # the filter reversed, padded to read every window x touches: one
        # im2col and product, no col2im.
        full_pad = tuple((k - 1) * d - p for k, d, p in zip(
            ksize, self.dilate, self.pad))
        if (all(s == 1 for s in self.stride) and min(full_pad) >= 0
                and _geometry.reversed_filter_pays(
                    x.shape[1], W.shape[1] * self.groups, self.groups,
                    math.prod(x.shape[2:]), math.prod(outsize))):
            y = convolve(x, reversed_filter(W, self.groups), self.stride,
                         full_pad, self.dilate, self.groups, outsize)[0]
            return _geometry.outputs(self, y, inputs)
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
            lambda x, W, gy: ConvolutionND(
                self.ndim, self.stride, self.pad, False, self.dilate,
                self.groups, x.shape[2:]).apply((gy, W))[0],
            lambda x, W, gy: ConvolutionNDGradW(
                self, W.shape[2:]).apply((gy, x))[0])


def grouped_deconv(x, W, groups, batch_last):
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


def reversed_filter(W, groups):
    """The filter ``(out, c / groups, k_1, ..., k_N)`` of the convolution
    that a stride-1 deconvolution with ``W`` ``(c, out / groups, k_1, ...,
    k_N)`` is: in each group the two channel axes swapped, and every kernel
    axis reversed."""
    c, out_g = W.shape[:2]
    ksize = W.shape[2:]
    per_group = W.reshape((groups, c // groups, out_g) + ksize)
    reverse = (slice(None),) * 3 + (slice(None, None, -1),) * len(ksize)
    return per_group.swapaxes(1, 2)[reverse].reshape(
        (groups * out_g, c // groups) + ksize)
