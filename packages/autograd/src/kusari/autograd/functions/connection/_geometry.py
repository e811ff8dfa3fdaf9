"""Argument handling and shared arithmetic of the convolution family."""
import numpy

from kusari.array import backend
from kusari.autograd.functions.math import _mixed_dtypes
from kusari.autograd.functions.math.sum import sum as _sum
from kusari.autograd.utils import int_tuples
from kusari.autograd.utils import type_check


def as_tuple(value, ndim):
    """An option of a (de)convolution node as a tuple of ``ndim`` values:
    an int repeated, a sequence as given (the public functions check the
    values; this only lets a node be built as Chainer's, ``stride=2``)."""
    return tuple(value) if isinstance(value, (tuple, list)) else \
        (value,) * ndim


def expect_groups(func_name, groups):
    """``groups`` as a positive int; a clear error otherwise."""
    return int_tuples.expand(func_name, 'groups', groups, 1, 1)[0]


def expand_options(func_name, ndim, stride, pad, dilate, groups):
    """The checked ``(stride, pad, dilate, groups)`` of a (de)convolution
    over ``ndim`` spatial axes."""
    return (int_tuples.expand(func_name, 'stride', stride, ndim, 1),
            int_tuples.expand(func_name, 'pad', pad, ndim, 0),
            int_tuples.expand(func_name, 'dilate', dilate, ndim, 1),
            expect_groups(func_name, groups))


def expect_inputs(in_types):
    """Type-check that the inputs are ``(x, W)`` or ``(x, W, b)`` and name
    them; returns the types of x and W."""
    # One or four inputs miss the two or three names: argname refuses.
    type_check.argname(in_types, ('x', 'W', 'b')[:max(len(in_types), 2)])
    return in_types[:2]


def expect_x_and_w(in_types, ndim, groups, transposed):
    """Type-check the input ``x`` and filter ``W`` of a (de)convolution
    (``transposed``: W is ``(c, out / groups, ...)``); returns their
    types."""
    x_type, w_type = expect_inputs(in_types)
    in_c = w_type.shape[0] if transposed else w_type.shape[1] * groups
    type_check.expect(
        x_type.dtype.kind == 'f', w_type.dtype.kind == 'f',
        x_type.ndim == ndim + 2, w_type.ndim == ndim + 2,
        x_type.shape[1] == in_c, w_type.shape[0] % groups == 0)
    return x_type, w_type


def expect_bias(in_types, n_out):
    """Type-check the optional bias ``b`` (third input) against x."""
    if len(in_types) == 3:
        x_type, b_type = in_types[0], in_types[2]
        type_check.expect(
            b_type.dtype == x_type.dtype, b_type.ndim == 1,
            b_type.shape[0] == n_out)


def gemm(a, b):
    """``matmul(a, b)``, in the promotion of their dtypes; two float16
    operands are multiplied in float32 (NumPy has no half-precision BLAS,
    and the sums need the precision)."""
    xp = backend.get_array_module(a)
    return _in_single_for_half(xp.matmul, a, b)


def einsum(subscripts, a, b):
    """``einsum(subscripts, a, b)`` in the precision of :func:`gemm`.

    For stacked products of a vector with a matrix (a depthwise
    convolution's, one filter per group and sample), where ``matmul``
    makes one BLAS call per pair, thousands of tiny ones: einsum runs
    them in one loop, 2.3 times faster."""
    xp = backend.get_array_module(a)
    return _in_single_for_half(
        lambda a, b: xp.einsum(subscripts, a, b), a, b)


def _in_single_for_half(product, a, b):
    if a.dtype == numpy.float16 and b.dtype == numpy.float16:
        return product(a.astype(numpy.float32),
                       b.astype(numpy.float32)).astype(numpy.float16)
    return product(a, b)


def batch_last(rows, patch, out_channels):
    """Whether a (de)convolution lays its patches out with the batch axis
    last (see :func:`kusari.autograd.utils.conv.im2col`).

    In the usual layout the patch copy (im2col) and the patch sums
    (col2im) run along output rows, which are slow when the rows are
    short; the batch-last layout runs ``n`` times longer but costs a
    transposed copy of the input and of the output. That pays off with
    ``rows`` (the output row length) under 16 and patches (``patch``
    values per output position and group) over twice as many as the
    output channels of a group (``out_channels``).
    """
    return rows < 16 and patch > 2 * out_channels


def reversed_filter_pays(in_channels, out_channels, groups, in_positions,
                         out_positions):
    """Whether a stride-1 deconvolution of ``in_channels`` at
    ``in_positions`` to ``out_channels`` at ``out_positions`` is cheaper
    as a convolution with the reversed filter (an im2col of the input,
    padded to the output's size, and its product) than as the transposed
    product and col2im.

    Per kernel offset, the convolution copies ``in_channels`` values per
    output position; the transposed product writes ``out_channels`` per
    input position, which col2im then adds into the output, about twice
    the cost of the copy. The products differ by the same ratio of
    positions: a multiply-add is counted as 1/16 of a copied value (as
    measured with OpenBLAS on one core).
    """
    copied = in_channels * out_positions
    summed = out_channels * in_positions
    return (copied * (16 + out_channels // groups)
            <= summed * (32 + in_channels // groups))


def batch_to_back(x):
    """``x`` ``(n, c, ...)`` as a C-contiguous ``(c, ..., n)``."""
    xp = backend.get_array_module(x)
    return xp.ascontiguousarray(xp.moveaxis(x, 0, -1))


def batch_to_front(y):
    """``y`` ``(c, ..., n)`` as a C-contiguous ``(n, c, ...)``."""
    xp = backend.get_array_module(y)
    return xp.ascontiguousarray(xp.moveaxis(y, -1, 0))


def outputs(node, y, inputs):
    """The outputs ``(y,)`` of the (de)convolution ``node`` of ``inputs``:
    ``y`` in x's dtype (it is computed in the promotion of x's and W's,
    and then the node is marked ``_mixed``), the bias ``inputs[2]``, if
    given, added in place along axis 1."""
    x, W = inputs[:2]
    if W.dtype != x.dtype:
        node._mixed = True
        y = y.astype(x.dtype)
    if len(inputs) == 3:
        y += inputs[2].reshape((1, -1) + (1,) * (y.ndim - 2))
    return y,


def spatial_axes(ndim):
    """Axes summed for the bias gradient: the batch and spatial axes."""
    return (0,) + tuple(range(2, ndim + 2))


def gradients(node, indexes, grad_outputs, grad_x, grad_w):
    """The gradients of ``(x, W[, b])`` of the (de)convolution ``node``
    that ``indexes`` asks for. ``grad_x(x, W, gy)`` and ``grad_w(x, W,
    gy)`` are called only when wanted; b's is ``gy`` summed over the batch
    and spatial axes. Each comes back in its input's dtype (W's may
    differ from x's)."""
    x, W = node.get_retained_inputs()
    gy, = grad_outputs
    ret = []
    if 0 in indexes:
        gx = grad_x(x, W, gy)
        ret.append(_mixed_dtypes.as_dtype_of(x, gx) if node._mixed else gx)
    if 1 in indexes:
        gW = grad_w(x, W, gy)
        ret.append(_mixed_dtypes.as_dtype_of(W, gW) if node._mixed else gW)
    if 2 in indexes:
        ret.append(_sum(gy, axis=spatial_axes(node.ndim)))
    return ret


def spatial_ndim(func_name, x):
    """Number of spatial axes of ``x`` (batch and channel axes first)."""
    if x.ndim < 3:
        raise ValueError(
            f'{func_name}: x must have a batch, a channel and at least one '
            f'spatial axis; got shape {x.shape}')
    return x.ndim - 2


def expect_spatial_ndim(func_name, x, ndim):
    """Raise ValueError unless ``x`` has ``ndim`` spatial axes (after its
    batch and channel axes), as the 1-d and 3-d forms want."""
    actual = x.ndim - 2
    if actual != ndim:
        raise ValueError(
            f"{func_name}: the number of dimensions under channel dimension "
            f"of the input 'x' should be {ndim}. But the actual ndim was "
            f"{actual} (x of shape {x.shape})")
