"""Converters of the array manipulations."""
import numpy
import onnx

from kusari.onnx import onnx_helper
from kusari.onnx.functions import _ops
from kusari.onnx.functions._registry import register

_ops.register_ops({'Copy': 'Identity', 'Shape': 'Shape'})


def _normal_axis(axis, ndim):
    return axis + ndim if axis < 0 else axis


@register('Cast')
def convert_cast(params):
    to = onnx.helper.np_dtype_to_tensor_dtype(numpy.dtype(params.func.type))
    return _ops.one_node('Cast', to=to)(params)


@register('Concat')
def convert_concat(params):
    return _ops.one_node('Concat', axis=params.func.axis)(params)


@register('Depth2Space')
def convert_depth2space(params):
    # Chainer's channel order (block row, block column, channel) is
    # ONNX's "DCR" mode.
    attributes = {'mode': 'DCR'} if _ops.since(params, 11) else {}
    return _ops.one_node('DepthToSpace', blocksize=params.func.r,
                         **attributes)(params)


@register('Space2Depth')
def convert_space2depth(params):
    return _ops.one_node('SpaceToDepth', blocksize=params.func.r)(params)


@register('Reshape')
def convert_reshape(params):
    """Squeeze or Unsqueeze where the shape only loses or gains axes of
    length one (squeeze, expand_dims), else Reshape."""
    gb = params.graph_builder()
    _ops.reshape_to(gb, params.input_names[0], params.input_shape(),
                    params.func.shape, params.output_names)
    return gb.nodes()


@register('Transpose')
def convert_transpose(params):
    axes = params.func.axes
    if axes is None:
        axes = tuple(reversed(range(len(params.input_shape()))))
    return _ops.one_node('Transpose', perm=list(axes))(params)


@register('Where')
def convert_where(params):
    condition, x, y = params.input_names
    gb = params.graph_builder()
    if params.input_dtype(0) != numpy.bool_:
        condition = gb.op('Cast', [condition], to=onnx.TensorProto.BOOL)
    _ops.where(gb, condition, x, y, params.input_dtype(1),
               params.output_names)
    return gb.nodes()


@register('Stack')
def convert_stack(params):
    ndim = len(params.input_shape()) + 1
    axis = _normal_axis(params.func.axis, ndim)
    gb = params.graph_builder()
    parts = [_ops.unsqueeze(gb, x, [axis]) for x in params.input_names]
    gb.op_output_named('Concat', parts, params.output_names, axis=axis)
    return gb.nodes()


@register('Pad')
def convert_pad(params):
    """ONNX's Pad for the constant, edge and reflect (and from opset 19
    wrap) modes; the copying modes it lacks (symmetric), or pads longer
    than it copies from, gather each padded axis's indices."""
    func = params.func
    shape = params.input_shape()
    gb = params.graph_builder()
    x = params.input_names[0]
    mode = func.mode
    if mode == 'constant':
        value = numpy.asarray(func.keywords.get('constant_values', 0))
        if value.size != 1:
            raise ValueError(
                f'{params.node_name}: ONNX pads with one constant; got '
                f'constant_values={value.tolist()!r}')
        _ops.pad(gb, x, func.pad_width, mode, value.item(),
                 params.input_dtype(), params.output_names)
        return gb.nodes()
    if _pad_copies(gb, mode, func.pad_width, shape):
        _ops.pad(gb, x, func.pad_width, mode, None, params.input_dtype(),
                 params.output_names)
        return gb.nodes()
    padded = [axis for axis, pads in enumerate(func.pad_width) if any(pads)]
    for axis in padded:
        index = numpy.pad(numpy.arange(shape[axis]), func.pad_width[axis],
                          mode=mode)
        x = _ops.emit(gb, 'Gather', [x, gb.const(index, numpy.int64)],
                      params.output_names if axis == padded[-1] else None,
                      axis=axis)
    if not padded:
        gb.op_output_named('Identity', [x], params.output_names)
    return gb.nodes()


def _pad_copies(gb, mode, pad_width, shape):
    """Whether ONNX's Pad copies elements as ``numpy.pad`` does in
    ``mode``: edge always, reflect with pads shorter than their axis,
    wrap (from opset 19) with pads no longer than it."""
    excess = max(max(pads) - side for pads, side in zip(pad_width, shape))
    if mode == 'edge':
        return True
    if mode == 'reflect':
        return excess < 0
    return mode == 'wrap' and _ops.since(gb, 19) and excess <= 0


@register('SelectItem')
def convert_select_item(params):
    """``x[i, t[i]]``: GatherElements from opset 11; before, a Gather
    from the flattened x."""
    x, t = params.input_names
    rows, columns = params.input_shape(0)
    gb = params.graph_builder()
    t = gb.op('Cast', [t], to=onnx.TensorProto.INT64)
    if _ops.since(gb, 11):
        picked = gb.op('GatherElements', [x, _ops.unsqueeze(gb, t, [1])],
                       axis=1)
        _ops.squeeze(gb, picked, [1], params.output_names)
        return gb.nodes()
    flat = gb.op('Add', [t, gb.const(numpy.arange(rows) * columns,
                                     numpy.int64)])
    gb.op_output_named('Gather', [_ops.reshape(gb, x, (-1,)), flat],
                       params.output_names, axis=0)
    return gb.nodes()


@register('TransposeSequence')
def convert_transpose_sequence(params):
    """``ys[t]``: the rows t of the sequences longer than t,
    concatenated."""
    gb = params.graph_builder()
    lengths = [params.input_shape(i)[0] for i in range(len(
        params.input_names))]
    for t, output in enumerate(params.output_names):
        rows = [_ops.slice_axes(gb, x, (length,), [t], [t + 1], [0], [1])
                for x, length in zip(params.input_names, lengths)
                if length > t]
        gb.op_output_named('Concat', rows, [output], axis=0)
    return gb.nodes()


@register('Separate')
def convert_separate(params):
    """One Gather of a scalar index per output drops the axis."""
    gb = params.graph_builder()
    x = params.input_names[0]
    axis = params.func.axis
    for i, output in enumerate(params.output_names):
        gb.op_output_named('Gather', [x, gb.const(i, numpy.int64)],
                           [output], axis=axis)
    return gb.nodes()


@register('SplitAxis')
def convert_split_axis(params):
    shape = params.input_shape()
    axis = _normal_axis(params.func.axis, len(shape))
    length = shape[axis]
    sections = params.func.indices_or_sections
    if isinstance(sections, (int, numpy.integer)):
        bounds = [length * i // sections for i in range(1, sections)]
    else:
        bounds = [min(max(_normal_axis(b, length), 0), length)
                  for b in sections]
    sizes = numpy.diff([0] + bounds + [length]).clip(0)
    gb = params.graph_builder()
    _ops.split(gb, params.input_names[0], sizes, axis, params.output_names)
    return gb.nodes()


@register('Tile')
def convert_tile(params):
    """NumPy's tile: missing repetitions are ones in front; more
    repetitions than axes add leading axes to x first."""
    reps = params.func.reps
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    shape = params.input_shape()
    gb = params.graph_builder()
    x = params.input_names[0]
    if len(reps) > len(shape):
        x = _ops.reshape(gb, x, (1,) * (len(reps) - len(shape)) + shape)
    reps = (1,) * (len(shape) - len(reps)) + reps
    gb.op_output_named('Tile', [x, gb.const(reps, numpy.int64)],
                       params.output_names)
    return gb.nodes()


@register('Repeat')
def convert_repeat(params):
    """A Gather of each index repeated."""
    func = params.func
    length = params.input_shape()[func.axis]
    repeats = func.repeats * length if len(func.repeats) == 1 \
        else func.repeats
    index = numpy.repeat(numpy.arange(length), repeats)
    gb = params.graph_builder()
    gb.op_output_named(
        'Gather', [params.input_names[0], gb.const(index, numpy.int64)],
        params.output_names, axis=func.axis)
    return gb.nodes()


@register('Permutate')
def convert_permutate(params):
    """``take(x, indices, axis)``; the inverse permutation is scattered
    in the graph, so indices given at run time work too."""
    x, indices = params.input_names
    gb = params.graph_builder()
    indices = gb.op('Cast', [indices], to=onnx.TensorProto.INT64)
    if params.func.inv:
        # inverse[i] = the j where indices[j] == i: the row of the one in
        # column i of the permutation matrix.
        n = params.input_shape(1)[0]
        matrix = gb.op('Equal', [_ops.unsqueeze(gb, indices, [1]),
                                 gb.const(numpy.arange(n), numpy.int64)])
        indices = gb.op('ArgMax', [gb.op(
            'Cast', [matrix], to=onnx.TensorProto.INT32)], axis=0,
            keepdims=0)
    gb.op_output_named('Gather', [x, indices], params.output_names,
                       axis=params.func.axis)
    return gb.nodes()


@register('ResizeImages')
def convert_resize_images(params):
    """Resize from opset 11; before (whose Upsample cannot place the
    samples as Chainer does), the function's own interpolation matrices:
    ``rows @ x @ cols^T``."""
    func = params.func
    gb = params.graph_builder()
    if not _ops.since(gb, 11):
        dtype = params.input_dtype()
        rows = gb.op('MatMul', [gb.const(func.rows, dtype),
                                params.input_names[0]])
        gb.op_output_named('MatMul', [rows, gb.const(func.cols.T, dtype)],
                           params.output_names)
        return gb.nodes()
    if func.mode == 'nearest':
        attributes = {'mode': 'nearest',
                      'coordinate_transformation_mode': 'asymmetric',
                      'nearest_mode': 'floor'}
    else:
        attributes = {'mode': 'linear',
                      'coordinate_transformation_mode':
                          'align_corners' if func.align_corners
                          else 'half_pixel'}
    if _ops.since(gb, 18):  # the sizes of the resized axes only
        sizes, attributes['axes'] = func.output_shape, [2, 3]
    else:
        sizes = params.input_shape()[:2] + tuple(func.output_shape)
    # Opsets 11 and 12 want the roi and scales inputs, empty.
    empty = gb.const(numpy.zeros(0), params.input_dtype())
    gb.op_output_named(
        'Resize', [params.input_names[0], empty, empty,
                   gb.const(sizes, numpy.int64)], params.output_names,
        **attributes)
    return gb.nodes()


@register('GetItem')
def convert_get_item(params):
    """Basic indexing (ints, slices, None, Ellipsis) as one Slice and a
    Reshape, and at most one integer or boolean array index (without int
    indices, whose placement NumPy then changes) as a Gather."""
    shape = params.input_shape()
    slices = params.func.slices
    starts, ends, axes, steps = [], [], [], []
    gathered = None
    axis = 0
    for index in _expand_ellipsis(slices, len(shape)):
        if index is None:
            continue
        if isinstance(index, slice):
            start, stop, step = index.indices(shape[axis])
            if (start, stop, step) != (0, shape[axis], 1):
                if stop < 0:  # a negative step running past the start
                    stop = -shape[axis] - 1
                starts.append(start)
                ends.append(stop)
                axes.append(axis)
                steps.append(step)
        elif isinstance(index, (int, numpy.integer)):
            start = _normal_axis(int(index), shape[axis])
            starts.append(start)
            ends.append(start + 1)
            axes.append(axis)
            steps.append(1)
        else:
            gathered = _array_index(params, gathered, index, axis, slices)
        axis += 1
    gb = params.graph_builder()
    x = params.input_names[0]
    if axes:
        x = _ops.slice_axes(gb, x, shape, starts, ends, axes, steps)
    if gathered is not None:
        x = gb.op('Gather', [x, gb.const(gathered[1], numpy.int64)],
                  axis=gathered[0])
    sliced = numpy.broadcast_to(numpy.empty((), numpy.int8), shape)
    _ops.reshape_to(gb, x, sliced[_keeping_axes(slices)].shape,
                    sliced[slices].shape, params.output_names)
    return gb.nodes()


def _keeping_axes(slices):
    """The index ``slices`` with its ints as length-one slices and its
    Nones dropped: the shape it gives before the ints' axes are dropped
    and the Nones' added."""
    return tuple(slice(index, index + 1 if index != -1 else None)
                 if isinstance(index, (int, numpy.integer)) else index
                 for index in slices if index is not None)


def _expand_ellipsis(slices, ndim):
    """The index with its Ellipsis (or missing trailing axes) as full
    slices."""
    used = sum(index is not None and index is not Ellipsis
               for index in slices)
    full = (slice(None),) * (ndim - used)
    at = [i for i, index in enumerate(slices) if index is Ellipsis]
    if at:
        return slices[:at[0]] + full + slices[at[0] + 1:]
    return tuple(slices) + full


def _array_index(params, gathered, index, axis, slices):
    """``(axis, int array)`` of the array index at ``axis``; the cases
    a Gather cannot express raise."""
    index = onnx_helper.to_host(index)
    if index.dtype == numpy.bool_ and index.ndim == 1:
        index = numpy.flatnonzero(index)
    if gathered is not None or index.dtype.kind not in 'iu' or any(
            isinstance(s, (int, numpy.integer)) for s in slices):
        raise ValueError(
            f'{params.node_name}: the index {slices!r} cannot be exported; '
            f'supported are ints, slices, None, Ellipsis and one integer '
            f'(or one-dimensional boolean) array without int indices')
    return axis, index
