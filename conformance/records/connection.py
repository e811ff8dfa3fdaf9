"""Records of the connections: linear maps, convolutions, embeddings."""
import itertools

import numpy
from hypothesis import strategies as st

from harness.record import FLOAT16
from harness.record import record
from harness.record import sample
from harness.strategies import floats
from harness.strategies import shapes
from kusari.autograd import functions as F

# Float16 sums of up to ~20 products of values in [-1, 1]; their gradients
# (and the float16 finite differences) need wider bounds still.
_LOOSE_FLOAT16 = {FLOAT16: {'forward': {'atol': 5e-2, 'rtol': 5e-2},
                            'backward': {'atol': 3e-2, 'rtol': 3e-2}}}


def _batch(draw):
    """A batch size drawn through shapes(), so the zero-size check can make
    it zero."""
    return draw(shapes(min_dims=1, max_dims=1, min_side=0, max_side=2))[0]


def _outsize(size, k, s, p, cover_all, d):
    extent = (k - 1) * d + 1
    return (size + 2 * p - extent + (s - 1 if cover_all else 0)) // s + 1


def conv_reference(x, W, b=None, stride=1, pad=0, cover_all=False,
                   dilate=1, groups=1):
    """N-d convolution as a sum over kernel offsets of strided slices."""
    nd = x.ndim - 2
    stride, pad, dilate = ((v,) * nd if isinstance(v, int) else v
                           for v in (stride, pad, dilate))
    ksize = W.shape[2:]
    outs = [_outsize(size, k, s, p, cover_all, d) for size, k, s, p, d in
            zip(x.shape[2:], ksize, stride, pad, dilate)]
    padded = numpy.zeros(x.shape[:2] + tuple(
        max(size + 2 * p, (o - 1) * s + (k - 1) * d + 1)
        for size, o, k, s, p, d in zip(x.shape[2:], outs, ksize, stride,
                                       pad, dilate)))
    padded[(Ellipsis,) + tuple(slice(p, p + size) for size, p in
                               zip(x.shape[2:], pad))] = x
    n, out_c = x.shape[0], W.shape[0]
    cg, og = W.shape[1], out_c // groups
    y = numpy.zeros((n, out_c) + tuple(outs))
    for offset in itertools.product(*[range(k) for k in ksize]):
        window = padded[(Ellipsis,) + tuple(
            slice(i * d, i * d + (o - 1) * s + 1, s)
            for i, o, s, d in zip(offset, outs, stride, dilate))]
        for g in range(groups):
            taps = W[(slice(g * og, (g + 1) * og), slice(None)) + offset]
            y[:, g * og:(g + 1) * og] += numpy.einsum(
                'oc,nc...->no...', taps, window[:, g * cg:(g + 1) * cg])
    if b is not None:
        y += b.reshape((1, -1) + (1,) * nd)
    return y


def deconv_reference(x, W, b=None, stride=1, pad=0, outsize=None,
                     dilate=1, groups=1):
    """Deconvolution as the adjoint of :func:`conv_reference`, built from
    its response to unit inputs (the inputs here are tiny)."""
    nd = x.ndim - 2
    stride, pad, dilate = ((v,) * nd if isinstance(v, int) else v
                           for v in (stride, pad, dilate))
    ksize = W.shape[2:]
    if outsize is None:
        outsize = tuple(s * (size - 1) + (k - 1) * d + 1 - 2 * p
                        for size, k, s, p, d in zip(x.shape[2:], ksize,
                                                    stride, pad, dilate))
    n, in_c = x.shape[:2]
    out_c = W.shape[1] * groups
    y = numpy.zeros((n, out_c) + tuple(outsize))
    # <deconv(x), e> = <x, conv(e)> for every unit image e.
    for index in numpy.ndindex(*y.shape[1:]):
        unit = numpy.zeros((1, out_c) + tuple(outsize))
        unit[(0,) + index] = 1
        response = conv_reference(unit, W, None, stride, pad, False,
                                  dilate, groups)
        cover = response.shape[2:] != x.shape[2:]
        if cover:
            response = conv_reference(unit, W, None, stride, pad, True,
                                      dilate, groups)
        y[(slice(None),) + index] = numpy.tensordot(
            x, response[0], axes=x.ndim - 1)
    if b is not None:
        y += b.reshape((1, -1) + (1,) * nd)
    return y


# Output rows of at least this length take the (de)convolutions' usual
# patch layout whatever the patch size; shorter ones may take the
# batch-last one (connection/_geometry.py: batch_last).
_LONG_ROWS = 16


def _optional_bias(draw, arrays, b):
    """``arrays`` with the bias ``b`` appended, or left out (None)."""
    return arrays + (b,) if draw(st.booleans()) else arrays


@st.composite
def _conv_sample(draw, nd, grouped=True, long_rows=False):
    """Convolution inputs and options; ``long_rows``: output rows of
    ``_LONG_ROWS`` or more (stride 1 along them)."""
    groups = draw(st.integers(1, 2)) if grouped else 1
    ksize = tuple(draw(st.integers(1, 3)) for _ in range(nd))
    stride = tuple(draw(st.integers(1, 2)) for _ in range(nd))
    pad = tuple(draw(st.integers(0, 1)) for _ in range(nd))
    dilate = tuple(draw(st.integers(1, 2)) for _ in range(nd))
    cover_all = draw(st.booleans())
    dims = tuple((k - 1) * d + 1 + draw(st.integers(0, 2))
                 for k, d in zip(ksize, dilate))
    if long_rows:
        stride = stride[:-1] + (1,)
        dims = dims[:-1] + (dims[-1] + _LONG_ROWS,)
    n = _batch(draw)
    c = groups * draw(st.integers(1, 2))
    out_c = groups * draw(st.integers(1, 2))
    x = draw(floats(shape=(n, c) + dims, low=-1, high=1))
    W = draw(floats(shape=(out_c, c // groups) + ksize, low=-1, high=1))
    b = draw(floats(shape=(out_c,), low=-1, high=1))
    return sample(*_optional_bias(draw, (x, W), b), stride=stride, pad=pad,
                  cover_all=cover_all, dilate=dilate, groups=groups)


for _nd, _name in ((1, 'convolution_1d'), (2, 'convolution_2d'),
                   (3, 'convolution_nd')):
    record(_name, getattr(F, _name), reference=conv_reference,
           inputs=_conv_sample(_nd), tolerances=_LOOSE_FLOAT16)
record('convolution_2d:long_rows', F.convolution_2d,
       reference=conv_reference, inputs=_conv_sample(2, long_rows=True),
       tolerances=_LOOSE_FLOAT16)


def _with_options(func, **fixed):
    return lambda *xs, **kwargs: func(*xs, **fixed, **kwargs)


record('convolution_3d',
       _with_options(F.convolution_3d, stride=(1, 2, 1), pad=(1, 0, 1)),
       reference=_with_options(conv_reference, stride=(1, 2, 1),
                               pad=(1, 0, 1)),
       inputs=(floats(shape=(1, 2, 3, 3, 2), low=-1, high=1),
               floats(shape=(2, 2, 2, 1, 2), low=-1, high=1)),
       zero_size=False, tolerances=_LOOSE_FLOAT16,
       reason='fixed shapes: the zero-size case is convolution_nd\'s')


@st.composite
def _dilated_sample(draw):
    drawn = draw(_conv_sample(2, grouped=False))
    drawn.kwargs.pop('groups')
    return drawn


record('dilated_convolution_2d', F.dilated_convolution_2d,
       reference=conv_reference, inputs=_dilated_sample(),
       tolerances=_LOOSE_FLOAT16)


@st.composite
def _deconv_sample(draw, nd, long_rows=False):
    """Deconvolution inputs and options; ``long_rows``: input rows (the
    patch rows of the deconvolution) of ``_LONG_ROWS`` or more."""
    groups = draw(st.integers(1, 2))
    ksize = tuple(draw(st.integers(1, 3)) for _ in range(nd))
    stride = tuple(draw(st.integers(1, 2)) for _ in range(nd))
    dilate = tuple(draw(st.integers(1, 2)) for _ in range(nd))
    pad = tuple(min(draw(st.integers(0, 1)), (k - 1) * d // 2)
                for k, d in zip(ksize, dilate))
    dims = tuple(draw(st.integers(1, 3)) for _ in range(nd))
    if long_rows:
        dims = dims[:-1] + (dims[-1] + _LONG_ROWS - 1,)
    n = _batch(draw)
    c = groups * draw(st.integers(1, 2))
    out_per_group = draw(st.integers(1, 2))
    x = draw(floats(shape=(n, c) + dims, low=-1, high=1))
    W = draw(floats(shape=(c, out_per_group) + ksize, low=-1, high=1))
    b = draw(floats(shape=(out_per_group * groups,), low=-1, high=1))
    kwargs = dict(stride=stride, pad=pad, dilate=dilate, groups=groups)
    if draw(st.booleans()):
        # Any length whose convolution (with or without cover_all) comes
        # back to x's.
        kwargs['outsize'] = tuple(
            s * (size - 1) + (k - 1) * d + 1 - 2 * p
            + draw(st.integers(0, s - 1))
            for size, k, s, p, d in zip(dims, ksize, stride, pad, dilate))
    return sample(*_optional_bias(draw, (x, W), b), **kwargs)


for _nd, _name in ((1, 'deconvolution_1d'), (2, 'deconvolution_2d'),
                   (3, 'deconvolution_nd')):
    record(_name, getattr(F, _name), reference=deconv_reference,
           inputs=_deconv_sample(_nd), tolerances=_LOOSE_FLOAT16)
record('deconvolution_2d:long_rows', F.deconvolution_2d,
       reference=deconv_reference, inputs=_deconv_sample(2, long_rows=True),
       tolerances=_LOOSE_FLOAT16)

record('deconvolution_3d',
       _with_options(F.deconvolution_3d, stride=(2, 1, 1), pad=(0, 1, 0)),
       reference=_with_options(deconv_reference, stride=(2, 1, 1),
                               pad=(0, 1, 0)),
       inputs=(floats(shape=(1, 2, 2, 3, 2), low=-1, high=1),
               floats(shape=(2, 2, 2, 2, 1), low=-1, high=1)),
       zero_size=False, tolerances=_LOOSE_FLOAT16,
       reason='fixed shapes: the zero-size case is deconvolution_nd\'s')


def _depthwise_reference(x, W, b, stride=1, pad=0):
    m, c = W.shape[:2]
    grouped = W.transpose(1, 0, 2, 3).reshape(c * m, 1, *W.shape[2:])
    return conv_reference(x, grouped, b, stride, pad, groups=c)


@st.composite
def _depthwise_sample(draw):
    n = _batch(draw)
    m, c = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    x = draw(floats(shape=(n, c, 4, 3), low=-1, high=1))
    W = draw(floats(shape=(m, c, 2, 2), low=-1, high=1))
    b = draw(floats(shape=(m * c,), low=-1, high=1))
    return sample(x, W, b, stride=draw(st.integers(1, 2)),
                  pad=draw(st.integers(0, 1)))


record('depthwise_convolution_2d', F.depthwise_convolution_2d,
       reference=_depthwise_reference, inputs=_depthwise_sample(),
       tolerances=_LOOSE_FLOAT16)


def _local_reference(x, W, b, stride=1):
    out_c, out_h, out_w, c, kh, kw = W.shape
    y = numpy.empty((x.shape[0], out_c, out_h, out_w))
    for i in range(out_h):
        for j in range(out_w):
            patch = x[:, :, i * stride:i * stride + kh,
                      j * stride:j * stride + kw]
            y[:, :, i, j] = numpy.einsum('nchw,ochw->no', patch,
                                         W[:, i, j])
    return y + b


@st.composite
def _local_sample(draw):
    n = _batch(draw)
    stride = draw(st.integers(1, 2))
    x = draw(floats(shape=(n, 2, 5, 4), low=-1, high=1))
    out_h, out_w = (5 - 2) // stride + 1, (4 - 2) // stride + 1
    W = draw(floats(shape=(3, out_h, out_w, 2, 2, 2), low=-1, high=1))
    b = draw(floats(shape=(3, out_h, out_w), low=-1, high=1))
    return sample(x, W, b, stride=stride)


record('local_convolution_2d', F.local_convolution_2d,
       reference=_local_reference, inputs=_local_sample(),
       tolerances=_LOOSE_FLOAT16)


@st.composite
def _linear_sample(draw):
    n_batch_axes = draw(st.integers(1, 2))
    batch = draw(shapes(min_dims=n_batch_axes, max_dims=n_batch_axes,
                        max_side=3))
    features = draw(shapes(min_dims=1, max_dims=2, min_side=1, max_side=3))
    x = draw(floats(shape=batch + features, low=-1, high=1))
    W = draw(floats(shape=(draw(st.integers(1, 3)),
                           int(numpy.prod(features))), low=-1, high=1))
    b = draw(floats(shape=W.shape[:1], low=-1, high=1))
    return sample(*_optional_bias(draw, (x, W), b),
                  n_batch_axes=n_batch_axes)


def _linear_reference(x, W, b=0.0, n_batch_axes=1):
    batch = x.shape[:n_batch_axes]
    return x.reshape(batch + (W.shape[1],)) @ W.T + b


record('linear', F.linear, reference=_linear_reference,
       inputs=_linear_sample(), tolerances=_LOOSE_FLOAT16)


def _bilinear_reference(e1, e2, W, V1=None, V2=None, b=None):
    e1 = e1.reshape(len(e1), W.shape[0])
    e2 = e2.reshape(len(e2), W.shape[1])
    y = numpy.einsum('ni,nj,ijk->nk', e1, e2, W)
    if V1 is not None:
        y += e1 @ V1 + e2 @ V2 + b
    return y


@st.composite
def _bilinear_sample(draw, linear_terms):
    """e1 and e2 of one or two axes after the batch's (the function
    flattens them)."""
    n = _batch(draw)
    tails = [tuple(draw(st.lists(st.integers(1, 2), min_size=1,
                                 max_size=2))) for _ in range(2)]
    i, j = (int(numpy.prod(tail)) for tail in tails)
    k = draw(st.integers(1, 3))
    arrays = [draw(floats(shape=shape, low=-1, high=1)) for shape in
              ((n,) + tails[0], (n,) + tails[1], (i, j, k))]
    if linear_terms:
        arrays += [draw(floats(shape=shape, low=-1, high=1))
                   for shape in ((i, k), (j, k), (k,))]
    return sample(*arrays)


record('bilinear', F.bilinear, reference=_bilinear_reference,
       inputs=_bilinear_sample(False), tolerances=_LOOSE_FLOAT16)
record('bilinear:linear_terms', F.bilinear, reference=_bilinear_reference,
       inputs=_bilinear_sample(True), tolerances=_LOOSE_FLOAT16)


@st.composite
def _embed_sample(draw):
    """Ids with ``ignore_label`` among them: left to its default None,
    -1, a valid id (whose rows then get no gradient) or one past the
    vocabulary."""
    n_vocab = draw(st.integers(1, 4))
    ignore_label = draw(st.sampled_from(
        [None, -1, 0, n_vocab - 1, n_vocab]))
    ids_shape = draw(shapes(min_dims=1, max_dims=2, max_side=3))
    extra = [] if ignore_label is None else [ignore_label]
    ids = draw(st.lists(st.sampled_from(extra + list(range(n_vocab))),
                        min_size=int(numpy.prod(ids_shape)),
                        max_size=int(numpy.prod(ids_shape))))
    x = numpy.array(ids, dtype=numpy.int32).reshape(ids_shape)
    W = draw(floats(shape=(n_vocab, draw(st.integers(1, 3)))))
    if ignore_label is None:
        return sample(x, W)
    return sample(x, W, ignore_label=ignore_label)


def _embed_reference(x, W, ignore_label=None):
    x = x.astype(numpy.intp)
    y = W[numpy.where(x == ignore_label, 0, x)]
    y[x == ignore_label] = 0
    return y


record('embed_id', F.embed_id, reference=_embed_reference,
       inputs=_embed_sample(), no_grads=(True, False))


@st.composite
def _shift_sample(draw):
    n = _batch(draw)
    ksize = draw(st.sampled_from([1, 3, (3, 1)]))
    k = ksize if isinstance(ksize, int) else ksize[0] * ksize[1]
    x = draw(floats(shape=(n, k * k if isinstance(ksize, int) else k + 1,
                           3, 4)))
    # Shifts of 3 and 4 (dilate -3, 4) reach past x's 3 rows: those
    # groups are shifted out whole.
    return sample(x, ksize=ksize,
                  dilate=draw(st.sampled_from([1, 2, -1, -3, 4])))


def _shift_reference(x, ksize=3, dilate=1):
    kh, kw = (ksize, ksize) if isinstance(ksize, int) else ksize
    dy = dx = dilate
    n_groups = kh * kw
    size = x.shape[1] // n_groups
    y = numpy.zeros_like(x)
    _, c, h, w = x.shape
    for group in range(n_groups):
        index = {(n_groups - 1) // 2: n_groups - 1,
                 n_groups - 1: (n_groups - 1) // 2}.get(group, group)
        ky, kx = index // kw - kh // 2, index % kw - kw // 2
        stop = c if group == n_groups - 1 else (group + 1) * size
        for i in range(h):
            for j in range(w):
                si, sj = i - ky * dy, j - kx * dx
                if 0 <= si < h and 0 <= sj < w:
                    y[:, group * size:stop, i, j] = \
                        x[:, group * size:stop, si, sj]
    return y


record('shift', F.shift, reference=_shift_reference,
       inputs=_shift_sample())


def _deformable_reference(x, offset, W, b=None, stride=1, pad=0):
    n, c, h, w = x.shape
    out_c, _, kh, kw = W.shape
    _, _, out_h, out_w = offset.shape
    padded = numpy.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    y = numpy.zeros((n, out_c, out_h, out_w))
    for i, j, p, q in itertools.product(range(out_h), range(out_w),
                                        range(kh), range(kw)):
        tap = p * kw + q
        for m in range(n):
            sx = j * stride + q + offset[m, tap, i, j]
            sy = i * stride + p + offset[m, kh * kw + tap, i, j]
            y[m, :, i, j] += W[:, :, p, q] @ _bilinear_at(padded[m], sy, sx)
    return y if b is None else y + b.reshape(1, -1, 1, 1)


def _bilinear_at(image, y, x):
    c, h, w = image.shape
    y0, x0 = int(numpy.floor(y)), int(numpy.floor(x))
    value = numpy.zeros(c)
    for yy, xx in itertools.product((y0, y0 + 1), (x0, x0 + 1)):
        if 0 <= yy < h and 0 <= xx < w:
            value += (1 - abs(y - yy)) * (1 - abs(x - xx)) * image[:, yy, xx]
    return value


@st.composite
def _deformable_sample(draw):
    """Kernels of one to three rows and columns (not always square), one
    to three channels, the bias and ``stride`` and ``pad`` sometimes left
    to their defaults."""
    n = _batch(draw)
    c, out_c = draw(st.integers(1, 3)), draw(st.integers(1, 2))
    kh, kw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    options = {}
    if draw(st.booleans()):
        options['stride'] = draw(st.integers(1, 2))
    if draw(st.booleans()):
        options['pad'] = draw(st.integers(0, 1))
    stride, pad = options.get('stride', 1), options.get('pad', 0)
    # The padded input has two rows and columns at least: the sampling
    # grid's coordinates are normalized by its sides less one (in Chainer
    # too, which gives NaN for a side of one; Kusari divides by zero).
    h, w = (max(k + draw(st.integers(0, 2)), 2 - 2 * pad) for k in (kh, kw))
    x = draw(floats(shape=(n, c, h, w), low=-1, high=1))
    out_h = (h + 2 * pad - kh) // stride + 1
    out_w = (w + 2 * pad - kw) // stride + 1
    # Offsets keep clear of integer sample positions, where bilinear
    # sampling has kinks.
    offset = draw(floats(shape=(n, 2 * kh * kw, out_h, out_w), low=-0.9,
                         high=0.9, away_from=[0.0], margin=0.15))
    W = draw(floats(shape=(out_c, c, kh, kw), low=-1, high=1))
    b = draw(floats(shape=(out_c,), low=-1, high=1))
    return sample(*_optional_bias(draw, (x, offset, W), b), **options)


record('deformable_convolution_2d_sampler',
       F.deformable_convolution_2d_sampler, reference=_deformable_reference,
       inputs=_deformable_sample(), tolerances=_LOOSE_FLOAT16,
       eps={'float16': 2e-2, 'float32': 1e-3, 'float64': 1e-3})
