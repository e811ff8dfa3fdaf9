"""Regions of interest: argument checks, and where each output bin reads.

Every ROI pooling is, for fixed regions, a sparse linear map of x: output
element ``(r, c, i, j)`` is ``sum_t weight[t] * x[b_r, c, h_t, w_t]`` over
the terms ``t`` of its bin (the elements of the bin, or the corners of
bilinear samples; for the max poolings the one term that is the
maximum). The functions here compute those terms for all regions at once,
as flat indexes into x and weights (zero for padding terms); an
:class:`ROIGather` node computes them in its forward, from its inputs (x
and the regions), and applies them as the
:class:`~kusari.autograd.functions.pooling._scatter_gather.Gather` it is:
its gradient is the adjoint scatter, and so on to every order.
"""
import math

import numpy

from kusari.array import backend
from kusari.autograd.functions.pooling import _scatter_gather
from kusari.autograd.utils import int_tuples


def _raw(x):
    return getattr(x, 'array', x)


def check_x(func_name, x):
    """x must be a float array ``(n, c, h, w)``."""
    x = _raw(x)
    if getattr(x, 'ndim', None) != 4 or x.dtype.kind != 'f':
        raise ValueError(
            f'{func_name}: x must be a float array (n, c, h, w); got '
            f'{getattr(x, "dtype", type(x).__name__)} of shape '
            f'{getattr(x, "shape", None)}')


def _checked_boxes(func_name, x, rois, fields):
    """Check ``x``, then ``rois`` as a float array ``(R, k)`` of the ``k``
    comma-separated ``fields``; return rois as an array."""
    check_x(func_name, x)
    rois = _raw(rois)
    width = len(fields.split(','))
    if getattr(rois, 'ndim', None) != 2 or rois.shape[1] != width \
            or rois.dtype.kind != 'f':
        raise ValueError(
            f'{func_name}: rois must be a float array (R, {width}) of '
            f'({fields}); got '
            f'{getattr(rois, "dtype", type(rois).__name__)} of shape '
            f'{getattr(rois, "shape", None)}')
    return rois


def check_rois(func_name, x, rois, roi_indices):
    """Check the regions ``(R, 4)`` (y_min, x_min, y_max, x_max) and their
    image indexes ``(R,)``."""
    rois = _checked_boxes(func_name, x, rois, 'y_min, x_min, y_max, x_max')
    roi_indices = _raw(roi_indices)
    if getattr(roi_indices, 'ndim', None) != 1 \
            or roi_indices.dtype.kind not in 'iu' \
            or roi_indices.shape[0] != rois.shape[0]:
        raise ValueError(
            f'{func_name}: roi_indices must be an int array ({rois.shape[0]},'
            f') (one image index per region); got '
            f'{getattr(roi_indices, "dtype", type(roi_indices).__name__)} '
            f'of shape {getattr(roi_indices, "shape", None)}')
    _check_values(func_name, rois, roi_indices, x.shape[0])


def _check_values(func_name, rois, batch, n):
    xp = backend.get_array_module(rois)
    if rois.size and not bool(xp.isfinite(rois).all()):
        raise ValueError(f'{func_name}: rois must be finite')
    if batch.size and not bool(((batch >= 0) & (batch < n)).all()):
        raise ValueError(f'{func_name}: every roi index must be an image '
                         f'of x, in [0, {n})')


def check_rois_with_index(func_name, x, rois):
    """Check regions ``(R, 5)`` of (image index, x_min, y_min, x_max,
    y_max)."""
    rois = _checked_boxes(func_name, x, rois,
                          'index, x_min, y_min, x_max, y_max')
    _check_values(func_name, rois, rois[:, 0], x.shape[0])


def outsize_pair(func_name, outsize):
    """``outsize`` (an int or a pair) as ``(out_h, out_w)``."""
    return int_tuples.expand(func_name, 'outsize', outsize, 2, 1)


def check_scale(func_name, spatial_scale):
    """``spatial_scale`` as a positive finite float."""
    try:
        scale = float(spatial_scale)
    except (TypeError, ValueError):
        scale = math.nan
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError(f'{func_name}: spatial_scale must be a positive '
                         f'number; got {spatial_scale!r}')
    return scale


def integer_bins(start, length, out, size):
    """Bins of rounded regions along one axis: bin ``i`` of region ``r``
    covers ``[lo, hi)``, ``floor(i L / out)`` to ``ceil((i + 1) L /
    out)`` past ``start`` (L the length), clipped to ``[0, size)``.

    Returns the positions ``(R, out, B)`` of the ``B`` elements of the
    longest bin (clipped into range) and whether each is in its bin.
    """
    xp = backend.get_array_module(start)
    step = (length / out)[:, None]
    i = xp.arange(out)
    lo = xp.clip(xp.floor(i * step).astype(numpy.intp) + start[:, None],
                 0, size)
    hi = xp.clip(xp.ceil((i + 1) * step).astype(numpy.intp)
                 + start[:, None], 0, size)
    longest = max(int((hi - lo).max()) if hi.size else 1, 1)
    positions = lo[:, :, None] + xp.arange(longest)
    inside = positions < hi[:, :, None]
    return xp.minimum(positions, size - 1), inside


def bilinear_samples(start, length, out, grid, size):
    """Bilinear sample points of ROI Align along one axis.

    Bin ``i`` of a region of float ``start`` and ``length`` has ``grid``
    samples at ``start + i b + (g + 1/2) b / grid`` (``b = length /
    out``); a sample reads the two pixels around it, or the edge pixel
    (samples below 0 move to 0, those past the last pixel to it).

    Returns ``(low, high, w_low, w_high, valid)``, each ``(R, out, G)``
    for the largest ``grid`` G: the two pixels, their weights, and whether
    the sample exists and lies within ``[-1, size]``.
    """
    xp = backend.get_array_module(start)
    step = (length / out)[:, None, None]
    grid = grid[:, None, None]
    g = xp.arange(int(grid.max()) if grid.size else 1)
    pos = (start[:, None, None] + xp.arange(out)[:, None] * step
           + (g + .5) * step / grid)
    valid = (g < grid) & (pos >= -1) & (pos <= size)
    pos = xp.maximum(pos, 0)
    low = xp.floor(pos).astype(numpy.intp)
    at_edge = low >= size - 1
    low = xp.where(at_edge, size - 1, low)
    high = xp.where(at_edge, size - 1, low + 1)
    w_high = xp.where(at_edge, 0.0, pos - low)
    return low, high, 1 - w_high, w_high, valid


def _pairs(rows, cols):
    """``rows`` ``(R, out_h, G_h, k_h)`` and ``cols`` ``(R, out_w, G_w,
    k_w)`` as broadcastable ``(R, out_h, out_w, G_h, G_w, k_h, k_w)``
    arrays, so that the ``k_h * k_w`` terms of a sample are adjacent."""
    n_rois, out_h, g_h, k_h = rows.shape
    _, out_w, g_w, k_w = cols.shape
    return (rows.reshape(n_rois, out_h, 1, g_h, 1, k_h, 1),
            cols.reshape(n_rois, 1, out_w, 1, g_w, 1, k_w))


def flat_index(x_shape, batch, rows, cols):
    """Flat indexes into x ``(n, c, h, w)`` of the terms of every bin:
    ``(R, c, out_h, out_w, T)`` from the per-axis pixel positions ``rows``
    ``(R, out_h, G_h, k_h)`` and ``cols`` ``(R, out_w, G_w, k_w)``, with
    the ``k_h * k_w`` terms of each of the ``G_h * G_w`` samples
    adjacent."""
    xp = backend.get_array_module(rows)
    _, c, h, w = x_shape
    row, col = _pairs(rows, cols)
    spatial = row * w + col
    base = (batch[:, None] * c + xp.arange(c)) * (h * w)
    return (base.reshape(base.shape + (1, 1, 1))
            + spatial.reshape(_terms_shape(spatial.shape)))


def pair_weights(rows, cols):
    """Weights of the terms of :func:`flat_index`: the products of the
    per-axis weights, ``(R, 1, out_h, out_w, T)``."""
    row, col = _pairs(rows, cols)
    weights = row * col
    return weights.reshape(_terms_shape(weights.shape))


def _terms_shape(shape):
    """``(R, 1, out_h, out_w, T)`` for pairs of shape :func:`_pairs`
    broadcasts to."""
    return shape[:1] + (1,) + shape[1:3] + (math.prod(shape[3:]),)


class ROIGather(_scatter_gather.Gather):
    """An ROI pooling of x: a Gather whose terms its forward computes from
    its inputs, x and then the regions (``rois`` and ``roi_indices``, or
    ``rois`` alone), by the ``terms(x_shape, *regions)`` method of each
    subclass (the flat indexes and weights of every output's terms); a
    max pooling (where ``groups`` is set) also chooses from x the group
    each output reads.
    Nothing is computed before the node is applied, so that a static_graph
    replay computes the terms of its own regions and data. The regions
    take no gradient.

    ``groups``: for a max pooling, the terms of one candidate (one bin
    element or one bilinear sample), and ``empty_value`` its output where
    no candidate exists; None for a weighted sum.
    """

    groups = None
    empty_value = None

    def __init__(self, outsize, spatial_scale, sampling_ratio=None):
        super().__init__(None, None, ())
        self.outsize = outsize
        self.spatial_scale = spatial_scale
        self.sampling_ratio = sampling_ratio

    def forward(self, inputs):
        x, *regions = inputs
        index, weight = self.terms(x.shape, *regions)
        if self.groups is not None:
            index, weight, self.offset = choose_max(
                x, index, weight, self.groups, self.empty_value)
        self.index, self.weight, self.buffer_shape = index, weight, x.shape
        return super().forward((x,))

    def backward(self, indexes, grad_outputs):
        if indexes[0] != 0:
            return (None,) * len(indexes)
        return (super().backward(indexes, grad_outputs)
                + (None,) * (len(indexes) - 1))


def choose_max(x, index, weight, groups, empty_value):
    """The terms of the max over groups of terms: the terms of ``(index,
    weight)`` form groups of ``groups`` consecutive terms; an output is
    the largest group sum of x, and ``empty_value`` where every group has
    zero weight.

    Returns the index and weight of each output's largest group (zero
    weight where there is none), and the offset to add: 0, or
    ``empty_value`` where there is none."""
    xp = backend.get_array_module(x)
    shape = index.shape[:-1] + (index.shape[-1] // groups, groups)
    full_index = xp.broadcast_to(index, index.shape).reshape(shape)
    full_weight = xp.broadcast_to(weight, index.shape).reshape(shape)
    exists = (full_weight != 0).any(axis=-1)
    values = (x.ravel()[full_index] * full_weight).sum(axis=-1)
    values[~exists] = -numpy.inf
    best = values.argmax(axis=-1)[..., None]
    found = xp.take_along_axis(exists, best, axis=-1)
    chosen = best[..., None]
    index = xp.take_along_axis(full_index, chosen, axis=-2)[..., 0, :]
    weight = xp.take_along_axis(full_weight, chosen, axis=-2)[..., 0, :]
    offset = xp.where(found[..., 0], 0, empty_value)
    return index, weight * found, offset


def rounded_bin_terms(x_shape, rois, batch, outsize, scale, extra=0):
    """Terms of bins of regions rounded to pixels (ROI pooling).

    A region spans ``round(min * scale)`` to ``round(max * scale)``; its
    length is the difference plus ``extra``, at least 1. Returns the
    flat indexes and the 0/1 weights (1 for the elements of each bin)."""
    xp = backend.get_array_module(rois)
    h, w = x_shape[2:]
    bounds = xp.round(rois.astype(numpy.float64) * scale).astype(numpy.intp)
    length = xp.maximum(bounds[:, 2:] - bounds[:, :2] + extra, 1)
    rows, in_h = integer_bins(bounds[:, 0], length[:, 0], outsize[0], h)
    cols, in_w = integer_bins(bounds[:, 1], length[:, 1], outsize[1], w)
    index = flat_index(x_shape, batch, rows[..., None], cols[..., None])
    weight = pair_weights(in_h[..., None].astype(numpy.float64),
                          in_w[..., None].astype(numpy.float64))
    return index, weight


def bilinear_terms(x_shape, rois, batch, outsize, scale, sampling_ratio):
    """Terms of the bilinear samples of ROI Align: for every sample its
    four corner pixels (adjacent terms) with their bilinear weights (zero
    for samples that do not exist or lie outside the image).

    Returns the flat indexes, the weights, and the number of samples per
    bin of each region ``(R,)``."""
    xp = backend.get_array_module(rois)
    h, w = x_shape[2:]
    start = rois[:, :2].astype(numpy.float64) * scale
    length = xp.maximum(rois[:, 2:].astype(numpy.float64) * scale - start,
                        1.0)
    n_rois = rois.shape[0]
    if sampling_ratio is None:
        grid = xp.ceil(length / xp.asarray(outsize)).astype(numpy.intp)
    else:
        grid = xp.broadcast_to(xp.asarray(sampling_ratio, numpy.intp),
                               (n_rois, 2))
    axes = []
    for axis, size in enumerate((h, w)):
        low, high, w_low, w_high, valid = bilinear_samples(
            start[:, axis], length[:, axis], outsize[axis], grid[:, axis],
            size)
        axes.append((xp.stack((low, high), axis=-1),
                     xp.stack((w_low, w_high), axis=-1) * valid[..., None]))
    (rows, row_weights), (cols, col_weights) = axes
    index = flat_index(x_shape, batch, rows, cols)
    weight = pair_weights(row_weights, col_weights)
    return index, weight, grid[:, 0] * grid[:, 1]


def sampling_pair(func_name, sampling_ratio):
    """``sampling_ratio`` (None, an int or a pair) as None or a pair."""
    if sampling_ratio is None:
        return None
    return int_tuples.expand(func_name, 'sampling_ratio', sampling_ratio, 2,
                            1)


def pooling_args(func_name, x, rois, roi_indices, outsize, spatial_scale):
    """Check the arguments of an ROI pooling (regions rounded to pixels);
    return ``outsize`` as a pair and the scale."""
    check_rois(func_name, x, rois, roi_indices)
    return (outsize_pair(func_name, outsize),
            check_scale(func_name, spatial_scale))


def align_args(func_name, x, rois, roi_indices, outsize, spatial_scale,
               sampling_ratio):
    """Check the arguments of an ROI Align; return ``outsize`` as a pair,
    the scale and ``sampling_ratio`` as None or a pair."""
    return (*pooling_args(func_name, x, rois, roi_indices, outsize,
                          spatial_scale),
            sampling_pair(func_name, sampling_ratio))
