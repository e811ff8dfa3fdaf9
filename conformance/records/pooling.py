"""Records of the pooling functions: max and average pooling, unpooling,
upsampling, spatial pyramid pooling and the ROI poolings.

Inputs of the max poolings hold distinct values (a shuffled grid 0.05
apart), so no two elements of a window tie and finite differences never
change which one is the maximum. Regions of interest are drawn on a grid
of ``integer + 0.2`` so that scaled coordinates never round at a half;
ROI max align samples fall on pixels (integer starts, two pixels per bin,
one sample), where its maximum is a distinct pixel value.
"""
import itertools
import math

import numpy
from hypothesis import strategies as st

from harness.record import record
from harness.record import sample
from harness.strategies import floats
from harness.strategies import shapes
from kusari.autograd import functions as F


def _batch(draw, least=0):
    """A batch size drawn through shapes(), so the zero-size check can make
    it zero."""
    return draw(shapes(min_dims=1, max_dims=1, min_side=least,
                       max_side=2))[0]


def _distinct(draw, shape):
    """An array of ``shape`` with distinct values 0.05 apart."""
    size = math.prod(shape)
    order = draw(st.permutations(range(size)))
    return (numpy.array(order, dtype=numpy.float64).reshape(shape) * 0.05
            - 0.025 * size)


def _tuple(value, nd):
    return (value,) * nd if isinstance(value, int) else tuple(value)


def _outsize(size, k, s, p, cover_all):
    return (size + 2 * p - k + (s - 1 if cover_all else 0)) // s + 1


def _windows(shape, ksize, stride, pad, cover_all):
    """Output lengths, and for every output position the slices of its
    window in the input padded by ``pad`` (and past it for cover_all)."""
    nd = len(shape) - 2
    ksize, stride, pad = (_tuple(v, nd) for v in (ksize, stride, pad))
    outs = [_outsize(d, k, s, p, cover_all) for d, k, s, p in
            zip(shape[2:], ksize, stride, pad)]
    padded = tuple(max(d + 2 * p, (o - 1) * s + k) for d, o, k, s, p in
                   zip(shape[2:], outs, ksize, stride, pad))
    inner = (Ellipsis,) + tuple(slice(p, p + d) for d, p in
                                zip(shape[2:], pad))
    windows = [(o, (Ellipsis,) + tuple(
        slice(i * s, i * s + k) for i, k, s in zip(o, ksize, stride)))
        for o in numpy.ndindex(*outs)]
    return outs, padded, inner, windows


def pool_reference(x, ksize, stride=None, pad=0, cover_all=False,
                   mode='max', pad_value=0):
    """Max or average pooling, one output position at a time."""
    stride = ksize if stride is None else stride
    outs, padded, inner, windows = _windows(x.shape, ksize, stride, pad,
                                            cover_all)
    buffer = numpy.full(x.shape[:2] + padded,
                        -numpy.inf if mode == 'max' else 0.0)
    buffer[inner] = x
    real = numpy.zeros(padded)
    real[inner[1:]] = 1
    y = numpy.empty(x.shape[:2] + tuple(outs))
    for o, window in windows:
        values = buffer[window]
        values = values.reshape(x.shape[:2] + (math.prod(values.shape[2:]),))
        if mode == 'max':
            y[(Ellipsis,) + o] = values.max(axis=-1)
        else:
            count = values.shape[-1] if pad_value == 0 else max(
                real[window[1:]].sum(), 1)
            y[(Ellipsis,) + o] = values.sum(axis=-1) / count
    return y


def unpool_reference(x, ksize, stride=None, pad=0, outsize=None,
                     cover_all=True, indexes=None):
    """Unpooling (each value over its window) or, given ``indexes``,
    upsampling (each value to one element of its window)."""
    nd = x.ndim - 2
    stride = ksize if stride is None else stride
    ksize, stride, pad = (_tuple(v, nd) for v in (ksize, stride, pad))
    if outsize is None:
        outsize = tuple(s * (d - 1) + k - 2 * p - (s - 1 if cover_all else 0)
                        for d, k, s, p in zip(x.shape[2:], ksize, stride,
                                              pad))
    big = tuple(max(o + 2 * p, (d - 1) * s + k) for o, d, k, s, p in
                zip(outsize, x.shape[2:], ksize, stride, pad))
    y = numpy.zeros(x.shape[:2] + big)
    for o in numpy.ndindex(*x.shape[2:]):
        window = tuple(slice(i * s, i * s + k) for i, k, s in
                       zip(o, ksize, stride))
        if indexes is None:
            y[(Ellipsis,) + window] += x[(Ellipsis,) + o][
                (Ellipsis,) + (None,) * nd]
            continue
        for n, c in numpy.ndindex(*x.shape[:2]):
            offset = numpy.unravel_index(int(indexes[(n, c) + o]), ksize)
            target = tuple(w.start + k for w, k in zip(window, offset))
            y[(n, c) + target] += x[(n, c) + o]
    return y[(Ellipsis,) + tuple(slice(p, p + o) for o, p in
                                 zip(outsize, pad))]


# -- max and average pooling ----------------------------------------------


def _leave_out_defaults(draw, kwargs):
    """``kwargs`` with the options equal to the functions' defaults
    (stride equal to ksize, pad 0, cover_all True, outsize None) left out
    at random, and a ksize of equal sides given as an int at random: the
    defaults and the int form are drawn too."""
    kwargs = dict(kwargs)
    ksize = kwargs['ksize']
    defaults = {'stride': ksize, 'pad': (0,) * len(ksize),
                'cover_all': True, 'outsize': None}
    for name, value in defaults.items():
        if name in kwargs and kwargs[name] == value and draw(st.booleans()):
            del kwargs[name]
    if len(set(ksize)) == 1 and draw(st.booleans()):
        kwargs['ksize'] = ksize[0]
    return kwargs


@st.composite
def _pool_geometry(draw, nd, cover_all, ksize=None):
    """Options whose every window holds an input element; the window
    ``ksize`` drawn (sides 1 to 3) where None."""
    if ksize is None:
        ksize = tuple(draw(st.integers(1, 3)) for _ in range(nd))
    stride = tuple(draw(st.integers(1, k if cover_all else 3))
                   for k in ksize)
    pad = tuple(draw(st.integers(0, k - 1)) for k in ksize)
    dims = tuple(k + draw(st.integers(0, 2 if nd < 3 else 1))
                 for k in ksize)
    # Without padding (and stride <= ksize for cover_all) the last window
    # starts inside the input; with it, it may start past the input.
    pad = tuple(0 if (_outsize(d, k, s, p, cover_all) - 1) * s - p >= d
                else p for d, k, s, p in zip(dims, ksize, stride, pad))
    return dims, ksize, stride, pad


@st.composite
def _max_sample(draw, nd, ksizes=None):
    """Max pooling inputs; the window from ``ksizes`` (a strategy) where
    given, with one channel."""
    cover_all = draw(st.booleans())
    ksize = None if ksizes is None else draw(ksizes)
    dims, ksize, stride, pad = draw(_pool_geometry(nd, cover_all, ksize))
    channels = 1 if ksizes is not None else draw(st.integers(1, 2))
    x = _distinct(draw, (_batch(draw), channels) + dims)
    return sample(x, **_leave_out_defaults(draw, dict(
        ksize=ksize, stride=stride, pad=pad, cover_all=cover_all)))


def _max_reference(x, ksize, stride=None, pad=0, cover_all=True):
    return pool_reference(x, ksize, stride, pad, cover_all)


for _nd, _name in ((1, 'max_pooling_1d'), (2, 'max_pooling_2d'),
                   (3, 'max_pooling_3d'), (2, 'max_pooling_nd')):
    record(_name, getattr(F, _name), reference=_max_reference,
           inputs=_max_sample(_nd))

# Windows of more than 32 offsets take another path of max pooling (one
# argmax over a copy of the windows instead of comparisons offset by
# offset): windows of 30 to 36 offsets, on both sides of it.
record('max_pooling_1d:large_window', F.max_pooling_1d,
       reference=_max_reference,
       inputs=_max_sample(1, st.integers(30, 36).map(lambda k: (k,))))
record('max_pooling_2d:large_window', F.max_pooling_2d,
       reference=_max_reference,
       inputs=_max_sample(2, st.sampled_from([(4, 8), (3, 11), (6, 6)])))


@st.composite
def _average_sample(draw, nd, with_pad_value=True):
    dims, ksize, stride, pad = draw(_pool_geometry(nd, False))
    x = draw(floats(shape=(_batch(draw), draw(st.integers(1, 2))) + dims,
                    low=-1, high=1))
    kwargs = _leave_out_defaults(draw, dict(ksize=ksize, stride=stride,
                                            pad=pad))
    if with_pad_value:
        pad_value = draw(st.sampled_from((0, None, 'default')))
        if pad_value != 'default':
            kwargs['pad_value'] = pad_value
    return sample(x, **kwargs)


def _average_reference(x, **kwargs):
    return pool_reference(x, mode='average', **kwargs)


for _nd, _name in ((1, 'average_pooling_1d'), (3, 'average_pooling_3d'),
                   (2, 'average_pooling_nd')):
    record(_name, getattr(F, _name), reference=_average_reference,
           inputs=_average_sample(_nd))
record('average_pooling_2d', F.average_pooling_2d,
       reference=_average_reference, inputs=_average_sample(2, False))


# -- unpooling and upsampling ---------------------------------------------


@st.composite
def _unpool_geometry(draw, nd):
    """Options and x's spatial shape for an unpooling; with an outsize
    drawn among those that pool back to x's shape."""
    cover_all = draw(st.booleans())
    ksize = tuple(draw(st.integers(1, 3)) for _ in range(nd))
    stride = tuple(draw(st.integers(1, k)) for k in ksize)
    pad = tuple(draw(st.integers(0, (k - 1) // 2)) for k in ksize)
    dims = tuple(draw(st.integers(1, 3 if nd < 3 else 2)) for _ in ksize)
    kwargs = dict(ksize=ksize, stride=stride, pad=pad, cover_all=cover_all)
    least = tuple(s * (d - 1) + k - 2 * p - (s - 1 if cover_all else 0)
                  for d, k, s, p in zip(dims, ksize, stride, pad))
    if draw(st.booleans()) and all(v >= 1 for v in least):
        candidates = [tuple(v + e for v, e in zip(least, extra))
                      for extra in itertools.product(
                          *[range(s) for s in stride])]
        fits = [o for o in candidates if tuple(
            _outsize(v, k, s, p, cover_all) for v, k, s, p in
            zip(o, ksize, stride, pad)) == dims]
        if fits:
            kwargs['outsize'] = draw(st.sampled_from(fits))
    elif any(v < 1 for v in least):
        kwargs['pad'] = (0,) * nd
    return dims, kwargs


@st.composite
def _unpool_sample(draw, nd):
    dims, kwargs = draw(_unpool_geometry(nd))
    x = draw(floats(shape=(_batch(draw), draw(st.integers(1, 2))) + dims,
                    low=-1, high=1))
    return sample(x, **_leave_out_defaults(draw, kwargs))


for _nd, _name in ((1, 'unpooling_1d'), (2, 'unpooling_2d'),
                   (3, 'unpooling_3d'), (2, 'unpooling_nd')):
    record(_name, getattr(F, _name), reference=unpool_reference,
           inputs=_unpool_sample(_nd))


@st.composite
def _upsampling_sample(draw):
    dims, kwargs = draw(_unpool_geometry(2))
    shape = (_batch(draw), draw(st.integers(1, 2))) + dims
    x = draw(floats(shape=shape, low=-1, high=1))
    size = math.prod(kwargs['ksize'])
    indexes = numpy.array(
        draw(st.lists(st.integers(0, size - 1), min_size=math.prod(shape),
                      max_size=math.prod(shape))),
        dtype=numpy.int32).reshape(shape)
    return sample(x, indexes, **_leave_out_defaults(draw, kwargs))


record('upsampling_2d', F.upsampling_2d,
       reference=lambda x, indexes, **kwargs: unpool_reference(
           x, indexes=indexes, **kwargs),
       inputs=_upsampling_sample(), no_grads=(False, True))


# -- spatial pyramid pooling ----------------------------------------------


def _pyramid_fits(size, height):
    """Whether no bin of any level lies wholly in the padding (it would
    pool to -inf)."""
    for level in range(height):
        bins = 2 ** level
        k = math.ceil(size / bins)
        pad = (k * bins - size) // 2
        if (_outsize(size, k, k, pad, True) - 1) * k - pad >= size:
            return False
    return True


@st.composite
def _pyramid_sample(draw):
    height = draw(st.integers(1, 3))
    sizes = [v for v in range(2 ** (height - 1), 7)
             if _pyramid_fits(v, height)]
    shape = (_batch(draw), draw(st.integers(1, 2)),
             draw(st.sampled_from(sizes)), draw(st.sampled_from(sizes)))
    # pooling=None is refused (ambiguous), as in Chainer.
    return sample(_distinct(draw, shape), pyramid_height=height,
                  pooling='max')


def _pyramid_reference(x, pyramid_height, pooling):
    n, _, h, w = x.shape
    levels = []
    for level in range(pyramid_height):
        bins = 2 ** level
        ksize = (math.ceil(h / bins), math.ceil(w / bins))
        pad = ((ksize[0] * bins - h) // 2, (ksize[1] * bins - w) // 2)
        pooled = pool_reference(x, ksize, ksize, pad, True)
        levels.append(pooled.reshape(n, pooled[:1].size, 1, 1))
    return numpy.concatenate(levels, axis=1)


record('spatial_pyramid_pooling_2d', F.spatial_pyramid_pooling_2d,
       reference=_pyramid_reference, inputs=_pyramid_sample())


# -- regions of interest ----------------------------------------------------


def _rounded_bins(low, high, scale, out, size, extra):
    start = round(low * scale)
    length = max(round(high * scale) - start + extra, 1)
    step = length / out
    return [(min(max(math.floor(i * step) + start, 0), size),
             min(max(math.ceil((i + 1) * step) + start, 0), size))
            for i in range(out)]


def _roi_pool_reference(x, rois, roi_indices, outsize, spatial_scale,
                        mode='max', extra=0, empty=-numpy.inf):
    """ROI max / average pooling over rounded bins, bin by bin."""
    spatial_scale = float(spatial_scale)
    out_h, out_w = _tuple(outsize, 2)
    h, w = x.shape[2:]
    y = numpy.zeros((len(rois), x.shape[1], out_h, out_w))
    for r, ((y0, x0, y1, x1), b) in enumerate(zip(rois, roi_indices)):
        rows = _rounded_bins(y0, y1, spatial_scale, out_h, h, extra)
        cols = _rounded_bins(x0, x1, spatial_scale, out_w, w, extra)
        for (i, (h0, h1)), (j, (w0, w1)) in itertools.product(
                enumerate(rows), enumerate(cols)):
            values = x[int(b), :, h0:h1, w0:w1].reshape(x.shape[1], -1)
            if values.shape[1] == 0:
                y[r, :, i, j] = empty if mode == 'max' else 0
            elif mode == 'max':
                y[r, :, i, j] = values.max(axis=1)
            else:
                y[r, :, i, j] = values.mean(axis=1)
    return y


def _bilinear(image, py, px):
    """Bilinear value of ``image (c, h, w)`` at ``(py, px)``, or None
    outside ``[-1, h] x [-1, w]``."""
    h, w = image.shape[1:]
    if py < -1 or py > h or px < -1 or px > w:
        return None
    corners = []
    for pos, size in ((max(py, 0), h), (max(px, 0), w)):
        low = int(pos)
        if low >= size - 1:
            corners.append((size - 1, size - 1, 1.0, 0.0))
        else:
            corners.append((low, low + 1, 1 - (pos - low), pos - low))
    (y0, y1, wy0, wy1), (x0, x1, wx0, wx1) = corners
    return (wy0 * wx0 * image[:, y0, x0] + wy0 * wx1 * image[:, y0, x1]
            + wy1 * wx0 * image[:, y1, x0] + wy1 * wx1 * image[:, y1, x1])


def _roi_align_reference(x, rois, roi_indices, outsize, spatial_scale,
                         sampling_ratio=None, mode='average'):
    """ROI average / max align, sample by sample."""
    out_h, out_w = _tuple(outsize, 2)
    y = numpy.zeros((len(rois), x.shape[1], out_h, out_w))
    for r, (roi, b) in enumerate(zip(rois, roi_indices)):
        start = roi[:2] * spatial_scale
        length = numpy.maximum(roi[2:] * spatial_scale - start, 1.0)
        bin_size = length / (out_h, out_w)
        grid = (_tuple(sampling_ratio, 2) if sampling_ratio is not None
                else tuple(int(math.ceil(v)) for v in length / (out_h,
                                                                out_w)))
        for i, j in itertools.product(range(out_h), range(out_w)):
            samples = [_bilinear(
                x[int(b)],
                start[0] + i * bin_size[0] + (gy + .5) * bin_size[0]
                / grid[0],
                start[1] + j * bin_size[1] + (gx + .5) * bin_size[1]
                / grid[1])
                for gy, gx in itertools.product(range(grid[0]),
                                                range(grid[1]))]
            inside = [s for s in samples if s is not None]
            if mode == 'average':
                y[r, :, i, j] = sum(inside, numpy.zeros(x.shape[1])) / len(
                    samples)
            else:
                y[r, :, i, j] = (numpy.max(inside, axis=0) if inside
                                 else -numpy.inf)
    return y


@st.composite
def _rois(draw, n, h, w, pixel_samples=False, inside=False):
    """Regions on the ``integer + 0.2`` grid (some degenerate; reaching
    past the image unless ``inside``, which keeps every bin non-empty),
    or with ``pixel_samples`` integer regions two pixels per bin of a
    2 x 2 output, every sample in the image."""
    count = draw(shapes(min_dims=1, max_dims=1, min_side=0,
                        max_side=3))[0]
    rois = []
    for _ in range(count):
        if pixel_samples:
            y0 = draw(st.integers(-1, h - 3))
            x0 = draw(st.integers(-1, w - 3))
            rois.append((y0, x0, y0 + 4, x0 + 4))
            continue
        margin = 0 if inside else 2
        y0, y1 = sorted(draw(st.integers(-margin, h - 1 + margin))
                        for _ in range(2))
        x0, x1 = sorted(draw(st.integers(-margin, w - 1 + margin))
                        for _ in range(2))
        rois.append((y0, x0, y1, x1))
    rois = numpy.array(rois, dtype=numpy.float64).reshape(-1, 4)
    if not pixel_samples:
        rois += 0.2
    indices = numpy.array([draw(st.integers(0, n - 1)) for _ in rois],
                          dtype=numpy.int32)
    return rois, indices


@st.composite
def _roi_sample(draw, distinct=True, align=False, pixel_samples=False):
    n, c = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    h, w = draw(st.integers(2, 5)), draw(st.integers(2, 5))
    if distinct:
        x = _distinct(draw, (n, c, h, w))
    else:
        x = draw(floats(shape=(n, c, h, w), low=-1, high=1))
    rois, indices = draw(_rois(n, h, w, pixel_samples, inside=distinct))
    if pixel_samples:
        return sample(x, rois, indices, outsize=2, spatial_scale=1.0,
                      sampling_ratio=1)
    kwargs = dict(outsize=draw(st.sampled_from((1, 2, (2, 3)))),
                  spatial_scale=draw(st.sampled_from((1.0, 0.5))))
    if align:
        kwargs['sampling_ratio'] = draw(st.sampled_from((None, 1, (2, 1))))
    return sample(x, rois, indices, **kwargs)


record('roi_max_pooling_2d', F.roi_max_pooling_2d,
       reference=_roi_pool_reference, inputs=_roi_sample(),
       no_grads=(False, True, True))
record('roi_average_pooling_2d', F.roi_average_pooling_2d,
       reference=lambda *a, **k: _roi_pool_reference(*a, mode='mean', **k),
       inputs=_roi_sample(distinct=False), no_grads=(False, True, True))
record('roi_average_align_2d', F.roi_average_align_2d,
       reference=_roi_align_reference,
       inputs=_roi_sample(distinct=False, align=True),
       no_grads=(False, True, True))
record('roi_max_align_2d', F.roi_max_align_2d,
       reference=lambda *a, **k: _roi_align_reference(*a, mode='max', **k),
       inputs=_roi_sample(pixel_samples=True),
       no_grads=(False, True, True))


@st.composite
def _roi_pooling_sample(draw):
    drawn = draw(_roi_sample())
    x, rois, indices = drawn.arrays
    out_h, out_w = _tuple(drawn.kwargs['outsize'], 2)
    # (index, x_min, y_min, x_max, y_max)
    boxes = numpy.concatenate([indices[:, None].astype(numpy.float64),
                               rois[:, [1, 0, 3, 2]]], axis=1)
    return sample(x, boxes, outh=out_h, outw=out_w,
                  spatial_scale=drawn.kwargs['spatial_scale'])


def _roi_pooling_reference(x, rois, outh, outw, spatial_scale):
    return _roi_pool_reference(
        x, rois[:, [2, 1, 4, 3]], rois[:, 0].astype(int), (outh, outw),
        spatial_scale, extra=1, empty=0.0)


record('roi_pooling_2d', F.roi_pooling_2d, reference=_roi_pooling_reference,
       inputs=_roi_pooling_sample(), no_grads=(False, True))
