"""Records of array manipulation: casting, reshaping, broadcasting,
indexing, joining, splitting, reordering, padding, resizing and sampling."""
import math

import numpy
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from harness.record import FLOAT16
from harness.record import record
from harness.record import sample
from harness.strategies import broadcastable_shapes
from harness.strategies import dtypes
from harness.strategies import floats
from harness.strategies import mutually_broadcastable
from harness.strategies import shapes
from harness.strategies import some_broadcast_floats
from kusari.array import backend
from kusari.autograd import functions as F

# -- cast, reshape, transpose, broadcasting, indexing --------------------


@st.composite
def _cast_sample(draw):
    return sample(draw(floats()), typ=draw(dtypes()))


# Cast is linear: a large step loses nothing to truncation and keeps the
# rounding of float16 outputs small next to the difference.
record('cast', F.cast, reference=lambda x, typ: x, inputs=_cast_sample(),
       output_dtype=lambda typ: typ,
       eps={dtype: 1.0 for dtype in ('float16', 'float32', 'float64')})


@st.composite
def _reshape_sample(draw):
    """A new shape of the same size: sides shuffled, neighbours merged,
    length-one axes added, and maybe one side given as -1."""
    x = draw(floats())
    sides = list(draw(st.permutations(x.shape)))
    merged = []
    for side in sides:
        if merged and draw(st.booleans()):
            merged[-1] *= side
        else:
            merged.append(side)
    for _ in range(draw(st.integers(0, 2))):
        merged.insert(draw(st.integers(0, len(merged))), 1)
    if merged and draw(st.booleans()):
        unknown = draw(st.integers(0, len(merged) - 1))
        rest = math.prod(merged[:unknown] + merged[unknown + 1:])
        if rest > 0:  # -1 is ambiguous next to a zero side
            merged[unknown] = -1
    return sample(x, shape=tuple(merged))


record('reshape', F.reshape, reference=numpy.reshape,
       inputs=_reshape_sample())


@st.composite
def _transpose_sample(draw):
    x = draw(floats())
    ndim = x.ndim
    permutation = st.permutations(range(ndim)).flatmap(
        lambda axes: st.tuples(*[st.sampled_from([a, a - ndim])
                                 for a in axes]))
    return sample(x, axes=draw(st.none() | permutation))


record('transpose', F.transpose, reference=numpy.transpose,
       inputs=_transpose_sample())


@st.composite
def _cyclic_transpose_sample(draw):
    """A permutation that is not its own inverse (a backward that applies
    it again instead of its inverse gives another array)."""
    x = draw(floats(shape=shapes(min_dims=3, max_dims=4, min_side=1)))
    axes = draw(st.permutations(range(x.ndim)).filter(
        lambda p: any(p[p[a]] != a for a in range(len(p)))))
    return sample(x, axes=tuple(axes))


record('transpose:not_involution', F.transpose, reference=numpy.transpose,
       inputs=_cyclic_transpose_sample(), zero_size=False,
       reason='drawn with sides of at least one (the record transpose has '
              'zero-size cases)')


@st.composite
def _broadcast_to_sample(draw):
    shape = draw(shapes())
    x = draw(floats(shape=broadcastable_shapes(shape)))
    return sample(x, shape=shape)


record('broadcast_to', F.broadcast_to, reference=numpy.broadcast_to,
       inputs=_broadcast_to_sample())
record('broadcast', F.broadcast,
       reference=lambda *xs: tuple(numpy.broadcast_arrays(*xs)),
       inputs=some_broadcast_floats(1, 3))


@st.composite
def _basic_index_sample(draw):
    x = draw(floats())
    index = draw(hnp.basic_indices(x.shape, allow_newaxis=True))
    return sample(x, slices=index)


@st.composite
def _advanced_index_sample(draw):
    """An integer array, a list of ints or a boolean mask at some axis,
    after full slices; integer indices may repeat."""
    x = draw(floats(shape=shapes(min_dims=1)))
    axis = draw(st.integers(0, x.ndim - 1))
    kind = draw(st.sampled_from(['integers', 'list', 'mask']))
    if kind == 'mask':
        span = draw(st.integers(1, x.ndim - axis))
        index = draw(hnp.arrays(bool, x.shape[axis:axis + span]))
    else:
        side = x.shape[axis]
        index_shape = shapes(min_dims=kind == 'list', max_dims=2)
        index = draw(hnp.arrays(
            numpy.intp, index_shape if side else (0,),
            elements=st.integers(-side, max(side - 1, 0))))
        if kind == 'list':
            index = index.tolist()
    if axis == 0:
        return sample(x, slices=index)
    return sample(x, slices=(slice(None),) * axis + (index,))


def _get_item_reference(x, slices):
    return x[slices]


record('get_item:basic', F.get_item, reference=_get_item_reference,
       inputs=_basic_index_sample())
record('get_item:advanced', F.get_item, reference=_get_item_reference,
       inputs=_advanced_index_sample())

def _beside(x, array):
    """An index array on the device of Variable ``x``."""
    return backend.get_device_from_array(x.array).send(array)


def _axis(draw, ndim, extra=0):
    """An axis of ``ndim`` axes (plus ``extra`` end positions), negative
    or not."""
    axis = draw(st.integers(0, ndim + extra - 1))
    return axis - (ndim + extra) if draw(st.booleans()) else axis


# -- joining and splitting ----------------------------------------------

@st.composite
def _concat_sample(draw):
    shape = list(draw(shapes(min_dims=1, max_dims=3)))
    axis = _axis(draw, len(shape))
    xs = []
    for _ in range(draw(st.integers(1, 3))):
        shape[axis] = draw(st.integers(0, 3)) if shape[axis] else 0
        xs.append(draw(floats(shape=tuple(shape))))
    return sample(*xs, axis=axis)


record('concat', lambda *xs, axis: F.concat(xs, axis),
       reference=lambda *xs, axis: numpy.concatenate(xs, axis),
       inputs=_concat_sample())


@st.composite
def _same_shapes(draw, min_dims=0, max_dims=3, extra=0, default_axis=False):
    """1 to 3 arrays of one shape, and an axis of that shape (or, with
    ``default_axis``, for half of them none: the function's default)."""
    shape = draw(shapes(min_dims=min_dims, max_dims=max_dims))
    xs = [draw(floats(shape=shape)) for _ in range(draw(st.integers(1, 3)))]
    if default_axis and draw(st.booleans()):
        return sample(*xs)
    axis = _axis(draw, len(shape), extra) if len(shape) + extra else 0
    return sample(*xs, axis=axis)


record('stack', lambda *xs, **options: F.stack(xs, **options),
       reference=lambda *xs, axis=0: numpy.stack(xs, axis),
       inputs=_same_shapes(extra=1, default_axis=True))
for _name, _numpy_join in (('hstack', numpy.hstack), ('vstack', numpy.vstack),
                           ('dstack', numpy.dstack)):
    record(_name,
           lambda *xs, axis, join=getattr(F, _name): join(xs),
           reference=lambda *xs, axis, join=_numpy_join: join(xs),
           inputs=_same_shapes())


@st.composite
def _split_sample(draw):
    x = draw(floats(shape=shapes(min_dims=1, max_dims=3)))
    axis = _axis(draw, x.ndim)
    side = x.shape[axis]
    divisors = [d for d in range(1, side + 1) if side % d == 0] or [1]
    sections = draw(st.sampled_from(divisors))
    indices = sorted(draw(st.lists(st.integers(0, side), max_size=3)))
    return sample(x, axis=axis,
                  indices_or_sections=draw(st.sampled_from(
                      [sections, indices])),
                  force_tuple=draw(st.booleans()))


record('split_axis', F.split_axis,
       reference=lambda x, indices_or_sections, axis, force_tuple: tuple(
           numpy.split(x, indices_or_sections, axis)),
       inputs=_split_sample())


@st.composite
def _one_axis(draw, min_dims=1, max_dims=3, extra=0):
    x = draw(floats(shape=shapes(min_dims=min_dims, max_dims=max_dims)))
    return sample(x, axis=_axis(draw, x.ndim, extra))


record('separate', F.separate,
       reference=lambda x, axis: tuple(numpy.moveaxis(x, axis, 0)),
       inputs=_one_axis())


@st.composite
def _sequences(draw, sort=False):
    """1 to 3 arrays ``(L_i, ...)`` of one trailing shape."""
    tail = draw(shapes(max_dims=2, max_side=3))
    lengths = draw(st.lists(st.integers(0, 4), min_size=1, max_size=3))
    if sort:
        lengths = sorted(lengths, reverse=True)
        lengths[0] = max(lengths[0], 1)
    return [draw(floats(shape=(n,) + tail)) for n in lengths]


@st.composite
def _pad_sequence_sample(draw):
    xs = draw(_sequences())
    longest = max(len(x) for x in xs)
    length = draw(st.none() | st.integers(longest, longest + 2))
    # The padding given, or left to its default (0).
    padding = draw(st.sampled_from([{}, {'padding': 0}, {'padding': -1.5},
                                    {'padding': 2}]))
    return sample(*xs, length=length, **padding)


def _pad_sequence_reference(*xs, length, padding=0):
    length = max(len(x) for x in xs) if length is None else length
    y = numpy.full((len(xs), length) + xs[0].shape[1:], padding, xs[0].dtype)
    for i, x in enumerate(xs):
        y[i, :len(x)] = x
    return y


record('pad_sequence',
       lambda *xs, length, **options: F.pad_sequence(xs, length, **options),
       reference=_pad_sequence_reference, inputs=_pad_sequence_sample())


def _transpose_sequence_reference(*xs):
    return tuple(numpy.array([x[t] for x in xs if len(x) > t])
                 for t in range(len(xs[0])))


record('transpose_sequence', lambda *xs: F.transpose_sequence(xs),
       reference=_transpose_sequence_reference,
       inputs=_sequences(sort=True))

# -- shapes and axes ------------------------------------------------------

record('expand_dims', F.expand_dims, reference=numpy.expand_dims,
       inputs=_one_axis(min_dims=0, extra=1))
record('flatten', F.flatten, reference=numpy.ravel, inputs=(floats(),))


@st.composite
def _squeeze_sample(draw):
    shape = draw(st.lists(st.sampled_from([1, 1, 2, 3]), max_size=3))
    ones = [i for i, side in enumerate(shape) if side == 1]
    axis = draw(st.none() | st.sets(st.sampled_from(ones)).map(tuple)
                if ones else st.none())
    tail = draw(shapes(max_dims=1, max_side=2))
    return sample(draw(floats(shape=tuple(shape) + tail)), axis=axis)


record('squeeze', F.squeeze, reference=numpy.squeeze,
       inputs=_squeeze_sample())


@st.composite
def _two_axes(draw, names):
    x = draw(floats(shape=shapes(min_dims=1)))
    return sample(x, **{name: _axis(draw, x.ndim) for name in names})


record('swapaxes', F.swapaxes, reference=numpy.swapaxes,
       inputs=_two_axes(('axis1', 'axis2')))


@st.composite
def _moveaxis_sample(draw):
    x = draw(floats(shape=shapes(min_dims=1)))
    count = draw(st.integers(1, x.ndim))
    source = draw(st.permutations(range(x.ndim)))[:count]
    destination = draw(st.permutations(range(x.ndim)))[:count]
    return sample(x, source=tuple(source), destination=tuple(destination))


record('moveaxis', F.moveaxis, reference=numpy.moveaxis,
       inputs=_moveaxis_sample())


@st.composite
def _rollaxis_sample(draw):
    x = draw(floats(shape=shapes(min_dims=1)))
    return sample(x, axis=_axis(draw, x.ndim),
                  start=draw(st.integers(-x.ndim, x.ndim)))


record('rollaxis', F.rollaxis, reference=numpy.rollaxis,
       inputs=_rollaxis_sample())
record('flip', F.flip, reference=numpy.flip, inputs=_one_axis())
record('fliplr', F.fliplr, reference=numpy.fliplr,
       inputs=(floats(shape=shapes(min_dims=2)),))
record('flipud', F.flipud, reference=numpy.flipud,
       inputs=(floats(shape=shapes(min_dims=1)),))


@st.composite
def _diagonal_sample(draw):
    x = draw(floats(shape=shapes(min_dims=2)))
    axis1, axis2 = draw(st.permutations(range(x.ndim)))[:2]
    return sample(x, offset=draw(st.integers(-2, 2)), axis1=axis1,
                  axis2=axis2 - x.ndim if draw(st.booleans()) else axis2)


record('diagonal', F.diagonal, reference=numpy.diagonal,
       inputs=_diagonal_sample())


@st.composite
def _as_strided_sample(draw, view=False):
    """A view of shape and strides (some negative, some zero) that fits
    its buffer, at a drawn offset; with ``view``, also the ``start`` of a
    view of that buffer, the input, which the view does not reach before."""
    shape = draw(shapes(max_dims=3, max_side=3))
    strides = tuple(draw(st.integers(-3, 3)) for _ in shape)
    reach = [(side - 1) * stride if side else 0
             for side, stride in zip(shape, strides)]
    below = -sum(r for r in reach if r < 0)
    span = below + sum(r for r in reach if r > 0) + 1
    start = draw(st.integers(0, 3)) if view else 0
    size = draw(st.integers(span + start, span + start + 3))
    offset = draw(st.integers(below + start, size - span + below))
    x = draw(floats(shape=(size,)))
    options = {'start': start} if view else {}
    return sample(x, shape=shape, strides=strides, storage_offset=offset,
                  **options)


def _as_strided_reference(x, shape, strides, storage_offset, start=0):
    index = numpy.full(shape, storage_offset)
    for axis, (side, stride) in enumerate(zip(shape, strides)):
        index += (numpy.arange(side) * stride).reshape(
            (-1,) + (1,) * (len(shape) - axis - 1))
    return x[index]


def _as_strided_of_view(x, start, **options):
    """as_strided of the view x[start:], which views x's memory: offsets
    count from the start of that memory, not of the view."""
    return F.as_strided(x[start:], **options)


record('as_strided', F.as_strided, reference=_as_strided_reference,
       inputs=_as_strided_sample(), any_layout=False,
       reason='it views the memory under its input: a view of another '
              'layout holds its values elsewhere in that memory')
record('as_strided:of_view', _as_strided_of_view,
       reference=_as_strided_reference,
       inputs=_as_strided_sample(view=True), any_layout=False,
       reason='it views the memory under its input: a view of another '
              'layout holds its values elsewhere in that memory')
def _as_strided_of_broadcast(x, **options):
    """as_strided of x broadcast to two rows, an input that views each
    element of its memory twice: as_strided shares the gradient of each
    such element between its two places (the broadcast sums them back)."""
    return F.as_strided(F.broadcast_to(x, (2,) + x.shape), **options)


record('as_strided:overlapping_input', _as_strided_of_broadcast,
       reference=_as_strided_reference, inputs=_as_strided_sample(),
       any_layout=False,
       reason='it views the memory under its input: a view of another '
              'layout holds its values elsewhere in that memory')
record('copy', lambda x: F.copy(x, backend.get_device_from_array(x.array)),
       reference=lambda x: x, inputs=(floats(),))

# -- repeating, padding ---------------------------------------------------


@st.composite
def _tile_sample(draw):
    x = draw(floats(shape=shapes(max_dims=3, max_side=3)))
    reps = draw(st.lists(st.integers(0, 3), max_size=3))
    return sample(x, reps=draw(st.sampled_from([tuple(reps),
                                                reps[0] if reps else 2])))


record('tile', F.tile, reference=numpy.tile, inputs=_tile_sample())


@st.composite
def _repeat_sample(draw):
    x = draw(floats(shape=shapes(max_dims=3, max_side=3)))
    axis = draw(st.none() | st.integers(0, x.ndim - 1)) if x.ndim else None
    length = x.size if axis is None else x.shape[axis]
    per_element = draw(st.lists(st.integers(0, 3), min_size=length,
                                max_size=length))
    repeats = draw(st.sampled_from([draw(st.integers(0, 3)),
                                    tuple(per_element) or (2,)]))
    return sample(x, repeats=repeats, axis=axis)


def _repeat_reference(x, repeats, axis):
    return numpy.repeat(x, repeats if isinstance(repeats, int)
                        else list(repeats), axis)


record('repeat', F.repeat, reference=_repeat_reference,
       inputs=_repeat_sample())


@st.composite
def _pad_sample(draw):
    x = draw(floats(shape=shapes(min_dims=1, max_dims=3, max_side=3)))
    modes = ['constant', 'edge', 'reflect', 'symmetric', 'wrap']
    mode = draw(st.sampled_from(modes if x.size else ['constant']))
    pad_width = tuple((draw(st.integers(0, 2)), draw(st.integers(0, 2)))
                      for _ in range(x.ndim))
    # The short forms: one int for every side, one (before, after) pair
    # for every axis.
    pad_width = draw(st.sampled_from([
        pad_width, pad_width[0][0], (pad_width[0][0],), pad_width[:1]]))
    keywords = {}
    if mode == 'constant':
        keywords['constant_values'] = draw(st.sampled_from([0, 1.5]))
    return sample(x, pad_width=pad_width, mode=mode, **keywords)


record('pad', F.pad, reference=numpy.pad, inputs=_pad_sample())

# -- indexing -------------------------------------------------------------


@st.composite
def _permutate_sample(draw):
    x = draw(floats(shape=shapes(min_dims=1)))
    axis = _axis(draw, x.ndim)
    order = draw(st.permutations(range(x.shape[axis])))
    return sample(x, indices=numpy.array(order, numpy.int32), axis=axis,
                  inv=draw(st.booleans()))


def _permutate_reference(x, indices, axis, inv):
    if inv:
        indices = numpy.argsort(indices)
    return numpy.take(x, indices, axis)


record('permutate',
       lambda x, indices, axis, inv: F.permutate(
           x, _beside(x, indices), axis, inv),
       reference=_permutate_reference, inputs=_permutate_sample())


@st.composite
def _select_item_sample(draw):
    batch = draw(shapes(min_dims=1, max_dims=1))[0]
    x = draw(floats(shape=(batch, draw(st.integers(1, 4)))))
    t = draw(hnp.arrays(numpy.int32, (batch,),
                        elements=st.integers(0, x.shape[1] - 1)))
    return sample(x, t=t)


record('select_item', lambda x, t: F.select_item(x, _beside(x, t)),
       reference=lambda x, t: x[numpy.arange(len(t)), t],
       inputs=_select_item_sample())


@st.composite
def _scatter_add_sample(draw):
    """An integer array (repeats allowed) or a slice on some axis."""
    a = draw(floats(shape=shapes(min_dims=1, max_dims=3)))
    axis = draw(st.integers(0, a.ndim - 1))
    side = a.shape[axis]
    if side and draw(st.booleans()):
        index = draw(hnp.arrays(numpy.intp, draw(st.integers(0, 4)),
                                elements=st.integers(-side, side - 1)))
    else:
        index = slice(draw(st.integers(0, side)), None)
    slices = (slice(None),) * axis + (index,)
    b = draw(floats(shape=a[slices].shape))
    return sample(a, b, slices=slices)


def _scatter_add_reference(a, b, slices):
    y = a.copy()
    numpy.add.at(y, slices, b)
    return y


record('scatter_add', lambda a, b, slices: F.scatter_add(a, slices, b),
       reference=_scatter_add_reference, inputs=_scatter_add_sample())


@st.composite
def _where_sample(draw):
    c_shape, x_shape, y_shape = draw(mutually_broadcastable(3))
    condition = draw(hnp.arrays(bool, c_shape))
    return sample(draw(floats(shape=x_shape)), draw(floats(shape=y_shape)),
                  condition=condition)


record('where',
       lambda x, y, condition: F.where(_beside(x, condition), x, y),
       reference=lambda x, y, condition: numpy.where(condition, x, y),
       inputs=_where_sample())

# -- images ---------------------------------------------------------------


def _images(draw, min_side=1, max_side=4, multiple=1):
    """``(n, c, h, w)`` floats; only the batch and channels can be empty,
    height and width are multiples of ``multiple``."""
    n, c = draw(shapes(min_dims=2, max_dims=2, max_side=2))
    h, w = draw(shapes(min_dims=2, max_dims=2, min_side=min_side,
                       max_side=max_side))
    return draw(floats(shape=(n, c, h * multiple, w * multiple)))


@st.composite
def _depth2space_sample(draw):
    # Up to 3: r * r and r ** r agree at 1 and 2.
    r = draw(st.integers(1, 3))
    n, c, h, w = _images(draw, max_side=3).shape
    return sample(draw(floats(shape=(n, c * r * r, h, w))), r=r)


def _depth2space_reference(X, r):
    n, channels, h, w = X.shape
    c = channels // (r * r)
    y = numpy.empty((n, c, h * r, w * r))
    for i in range(r):
        for j in range(r):
            y[:, :, i::r, j::r] = X[:, (i * r + j) * c:(i * r + j + 1) * c]
    return y


record('depth2space', F.depth2space, reference=_depth2space_reference,
       inputs=_depth2space_sample())


@st.composite
def _space2depth_sample(draw):
    r = draw(st.integers(1, 3))
    return sample(_images(draw, max_side=2, multiple=r), r=r)


def _space2depth_reference(X, r):
    n, c, h, w = X.shape
    y = numpy.empty((n, c * r * r, h // r, w // r))
    for i in range(r):
        for j in range(r):
            y[:, (i * r + j) * c:(i * r + j + 1) * c] = X[:, :, i::r, j::r]
    return y


record('space2depth', F.space2depth, reference=_space2depth_reference,
       inputs=_space2depth_sample())


@st.composite
def _im2col_sample(draw):
    x = _images(draw, max_side=5)
    ksize = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    stride = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    pad = draw(st.integers(0, 1)), draw(st.integers(0, 1))
    dilate = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    # The dilated kernel must fit the padded image.
    sides = [max(side, (k - 1) * d + 1 - 2 * p) for side, k, d, p in
             zip(x.shape[2:], ksize, dilate, pad)]
    x = numpy.pad(x, ((0, 0), (0, 0), (0, sides[0] - x.shape[2]),
                      (0, sides[1] - x.shape[3])), constant_values=0.5)
    return sample(x, ksize=ksize, stride=stride, pad=pad,
                  cover_all=draw(st.booleans()), dilate=dilate)


def _im2col_reference(x, ksize, stride, pad, cover_all, dilate):
    n, c, h, w = x.shape
    outs = []
    for side, k, s, p, d in zip((h, w), ksize, stride, pad, dilate):
        extent = (k - 1) * d + 1
        slack = s - 1 if cover_all else 0
        outs.append((side + 2 * p - extent + slack) // s + 1)
    big = numpy.zeros((n, c, h + 2 * pad[0] + 2 * ksize[0] * dilate[0]
                       + stride[0] * outs[0],
                       w + 2 * pad[1] + 2 * ksize[1] * dilate[1]
                       + stride[1] * outs[1]))
    big[:, :, pad[0]:pad[0] + h, pad[1]:pad[1] + w] = x
    y = numpy.empty((n, c, ksize[0], ksize[1], outs[0], outs[1]))
    for i in range(ksize[0]):
        for j in range(ksize[1]):
            for oy in range(outs[0]):
                for ox in range(outs[1]):
                    y[:, :, i, j, oy, ox] = big[
                        :, :, oy * stride[0] + i * dilate[0],
                        ox * stride[1] + j * dilate[1]]
    return y.reshape(n, c * ksize[0] * ksize[1], outs[0], outs[1])


record('im2col', F.im2col, reference=_im2col_reference,
       inputs=_im2col_sample())


@st.composite
def _resize_sample(draw):
    x = _images(draw)
    return sample(x, output_shape=(draw(st.integers(1, 5)),
                                   draw(st.integers(1, 5))),
                  mode=draw(st.sampled_from(['bilinear', 'nearest'])),
                  align_corners=draw(st.booleans()))


def _source_points(in_size, out_size, mode, align_corners):
    """Per output pixel: the two source pixels and the second's weight."""
    d = numpy.arange(out_size)
    if mode == 'nearest':
        low = numpy.minimum(numpy.floor(d * in_size / out_size).astype(int),
                            in_size - 1)
        return low, low, numpy.zeros(out_size)
    if align_corners:
        src = d * ((in_size - 1) / max(out_size - 1, 1))
    else:
        src = numpy.clip((d + 0.5) * in_size / out_size - 0.5, 0,
                         in_size - 1)
    low = numpy.floor(src).astype(int)
    return low, numpy.minimum(low + 1, in_size - 1), src - low


def _resize_reference(x, output_shape, mode, align_corners):
    (y0, y1, wy), (x0, x1, wx) = [
        _source_points(i, o, mode, align_corners)
        for i, o in zip(x.shape[2:], output_shape)]
    wy, wx = wy[:, None], wx[None, :]
    rows0, rows1 = x[:, :, y0], x[:, :, y1]
    return ((1 - wy) * ((1 - wx) * rows0[..., x0] + wx * rows0[..., x1])
            + wy * ((1 - wx) * rows1[..., x0] + wx * rows1[..., x1]))


record('resize_images', F.resize_images, reference=_resize_reference,
       inputs=_resize_sample(),
       tolerances={FLOAT16: {'forward': {'atol': 1e-2}}})


@st.composite
def _grid_sample(draw):
    n = draw(shapes(min_dims=1, max_dims=1, max_side=2))[0]
    theta = draw(floats(shape=(n, 2, 3)))
    return sample(theta, output_shape=(draw(st.integers(1, 4)),
                                       draw(st.integers(1, 4))))


def _grid_reference(theta, output_shape):
    h, w = output_shape
    ys, xs = numpy.meshgrid(numpy.linspace(-1, 1, h),
                            numpy.linspace(-1, 1, w), indexing='ij')
    points = numpy.stack([xs, ys, numpy.ones_like(xs)])
    return numpy.einsum('nij,jhw->nihw', theta, points)


record('spatial_transformer_grid', F.spatial_transformer_grid,
       reference=_grid_reference, inputs=_grid_sample())


def _kinks(side):
    """Grid coordinates where bilinear sampling along an image side of
    ``side`` pixels has a kink: pixel centers, and the clipping points a
    pixel beyond the border."""
    step = 2 / (side - 1)
    return [-1 + k * step for k in range(-1, side + 1)]


@st.composite
def _sampler_sample(draw):
    x = _images(draw, min_side=2)
    n, _, h, w = x.shape
    out = draw(shapes(min_dims=2, max_dims=2, min_side=1, max_side=3))
    u = draw(floats(shape=(n,) + out, low=-1.8, high=1.8,
                    away_from=_kinks(w), margin=0.05))
    v = draw(floats(shape=(n,) + out, low=-1.8, high=1.8,
                    away_from=_kinks(h), margin=0.05))
    return x, numpy.stack([u, v], axis=1)


def _sampler_reference(x, grid):
    n, c, h, w = x.shape
    padded = numpy.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    u = numpy.clip((grid[:, 0] + 1) * (w - 1) / 2 + 1, 0, w + 1)
    v = numpy.clip((grid[:, 1] + 1) * (h - 1) / 2 + 1, 0, h + 1)
    y = numpy.zeros((n, c) + grid.shape[2:])
    for b in range(n):
        for index in numpy.ndindex(*grid.shape[2:]):
            for row in range(h + 2):
                for col in range(w + 2):
                    weight = (max(0, 1 - abs(v[b][index] - row))
                              * max(0, 1 - abs(u[b][index] - col)))
                    y[(b, slice(None)) + index] += weight * \
                        padded[b, :, row, col]
    return y


record('spatial_transformer_sampler', F.spatial_transformer_sampler,
       reference=_sampler_reference, inputs=_sampler_sample(),
       tolerances={FLOAT16: {'forward': {'atol': 1e-2}}})
