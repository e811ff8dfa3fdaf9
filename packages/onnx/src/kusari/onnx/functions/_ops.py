"""Node patterns shared by the converters of several families.

Each helper writes what the builder's opset defines: an operand that
became an input in a later opset (Squeeze's axes, Split's sizes, Clip's
bounds, Pad's pads, a reduction's axes, Slice's bounds) is an attribute
before it, and an operator missing from an old opset is made of older
ones.
"""
import math

import numpy
import onnx

from kusari.onnx.functions._registry import register

# The opset from which each reduction takes its axes as an input instead
# of an attribute.
_AXES_INPUT_SINCE = {'ReduceSum': 13}
_AXES_INPUT_DEFAULT = 18


def one_node(op_type, **attributes):
    """A converter writing one ``op_type`` node from the inputs."""
    def convert(params):
        gb = params.graph_builder()
        gb.op_output_named(op_type, params.input_names, params.output_names,
                           **attributes)
        return gb.nodes()
    return convert


def register_ops(table):
    """Register one single-node converter per ``function name -> ONNX op
    type`` of ``table``."""
    for func_name, op_type in table.items():
        register(func_name)(one_node(op_type))


def since(gb, version):
    """Whether the opset of ``gb`` (a GraphBuilder or ConvertParams) is
    ``version`` or newer (None, the newest, is)."""
    return gb.opset_version is None or gb.opset_version >= version


def emit(gb, op_type, inputs, output_names=None, **attributes):
    """One node writing fresh outputs, or ``output_names``; returns its
    (first) output."""
    if output_names is None:
        return gb.op(op_type, inputs, **attributes)
    return gb.op_output_named(op_type, inputs, output_names, **attributes)[0]


def _ints(gb, values):
    return gb.const(numpy.asarray(values, numpy.int64))


def _with_operand(gb, op_type, since_version, name, values, inputs,
                  output_names, **attributes):
    """``op_type`` with ``values`` as its input ``name`` from opset
    ``since_version`` on, as its attribute before."""
    if since(gb, since_version):
        inputs = inputs + [_ints(gb, values)]
    else:
        attributes[name] = [int(v) for v in values]
    return emit(gb, op_type, inputs, output_names, **attributes)


def reduce(gb, op_type, x, axes, keepdims, output_names=None):
    """An ONNX reduction of ``x`` over ``axes`` (None: every axis)."""
    keepdims = int(bool(keepdims))
    if axes is None:
        return emit(gb, op_type, [x], output_names, keepdims=keepdims)
    version = _AXES_INPUT_SINCE.get(op_type, _AXES_INPUT_DEFAULT)
    return _with_operand(gb, op_type, version, 'axes', axes, [x],
                         output_names, keepdims=keepdims)


def reshape(gb, x, shape, output_names=None):
    """Reshape ``x`` to ``shape`` (a tuple of ints)."""
    return emit(gb, 'Reshape', [x, _ints(gb, shape)], output_names)


def _dropped_ones(shape, kept):
    """The axes of ``shape`` to drop, all of length one, to leave
    ``kept``; None if there are none such."""
    dropped, j = [], 0
    for axis, side in enumerate(shape):
        if j < len(kept) and kept[j] == side:
            j += 1
        elif side == 1:
            dropped.append(axis)
        else:
            return None
    return dropped if j == len(kept) else None


def reshape_to(gb, x, shape, new_shape, output_names=None):
    """``x`` of ``shape`` reshaped to ``new_shape`` (which may hold one
    -1) by the op a reader expects: Identity, Squeeze (length-one axes
    dropped), Unsqueeze (added), else Reshape, whose leading axes kept as
    they are copy the input's (0), so that they may differ at run
    time."""
    shape, target = tuple(shape), list(new_shape)
    new_shape = tuple(target)
    if -1 in target:
        known = math.prod(side for side in target if side != -1)
        new_shape = tuple(math.prod(shape) // known if side == -1 else side
                          for side in target)
    if shape == new_shape:
        return emit(gb, 'Identity', [x], output_names)
    squeezed = _dropped_ones(shape, new_shape)
    if squeezed is not None:
        return squeeze(gb, x, squeezed, output_names)
    unsqueezed = _dropped_ones(new_shape, shape)
    if unsqueezed is not None:
        return unsqueeze(gb, x, unsqueezed, output_names)
    for axis, (side, new_side) in enumerate(zip(shape, new_shape)):
        if side != new_side or side == 0:
            break
        target[axis] = 0
    return reshape(gb, x, target, output_names)


def squeeze(gb, x, axes, output_names=None):
    """Drop the length-one axes ``axes``."""
    return _with_operand(gb, 'Squeeze', 13, 'axes', axes, [x], output_names)


def unsqueeze(gb, x, axes, output_names=None):
    """Insert length-one axes at ``axes`` (of the output)."""
    return _with_operand(gb, 'Unsqueeze', 13, 'axes', axes, [x],
                         output_names)


def split(gb, x, sizes, axis, output_names=None):
    """Split ``x`` along ``axis`` into parts of ``sizes``; returns the
    names of the parts."""
    inputs, attributes = [x], {'axis': axis}
    if since(gb, 13):
        inputs.append(_ints(gb, sizes))
    else:
        attributes['split'] = [int(size) for size in sizes]
    if output_names is not None:
        return gb.op_output_named('Split', inputs, output_names, **attributes)
    parts = gb.op('Split', inputs, num_outputs=len(sizes), **attributes)
    return parts if len(sizes) > 1 else (parts,)


def slice_axes(gb, x, shape, starts, ends, axes, steps, output_names=None):
    """``x[start:end:step]`` along each of ``axes`` (of ``shape``); before
    opset 10, whose Slice has no steps, an axis with a step other than 1
    is a Gather of its indices."""
    if not since(gb, 10):
        unit = [(s, e, a) for s, e, a, st in zip(starts, ends, axes, steps)
                if st == 1]
        for start, end, axis, step in zip(starts, ends, axes, steps):
            if step != 1:
                x = gb.op('Gather', [x, _ints(gb, range(
                    *slice(start, end, step).indices(shape[axis])))],
                    axis=axis)
        if not unit:
            return emit(gb, 'Identity', [x], output_names)
        starts, ends, axes = zip(*unit)
        return emit(gb, 'Slice', [x], output_names, starts=list(starts),
                    ends=list(ends), axes=list(axes))
    return emit(gb, 'Slice', [x] + [_ints(gb, values) for values in (
        starts, ends, axes, steps)], output_names)


def pad(gb, x, pad_width, mode, value, dtype, output_names=None):
    """ONNX's Pad of ``x`` by ``pad_width`` (one ``(before, after)``
    pair per axis) in ``mode``, with ``value`` for the constant mode;
    ``dtype``: x's."""
    pads = [int(before) for before, _ in pad_width] + [
        int(after) for _, after in pad_width]
    if not since(gb, 11):
        attributes = {} if value is None else {'value': float(value)}
        return emit(gb, 'Pad', [x], output_names, mode=mode, pads=pads,
                    **attributes)
    inputs = [x, _ints(gb, pads)]
    if value is not None:
        inputs.append(gb.const(value, dtype))
    return emit(gb, 'Pad', inputs, output_names, mode=mode)


def clip(gb, x, low, high, dtype, output_names=None):
    """``x`` clipped to ``[low, high]`` (a bound None: none on that
    side); ``dtype``: x's."""
    if not since(gb, 11):
        attributes = {name: float(bound) for name, bound in
                      (('min', low), ('max', high)) if bound is not None}
        return emit(gb, 'Clip', [x], output_names, **attributes)
    bounds = ['' if bound is None else gb.const(bound, dtype)
              for bound in (low, high)]
    while bounds and bounds[-1] == '':
        bounds.pop()
    return emit(gb, 'Clip', [x] + bounds, output_names)


def softmax(gb, op_type, x, axis, ndim, output_names=None):
    """Softmax or LogSoftmax over one ``axis`` of an ``ndim``-dimensional
    ``x``. Before opset 13 the op normalizes over every axis from its
    ``axis`` on, which is the one axis only for the last: another axis
    is moved last and back."""
    axis = axis % ndim
    if since(gb, 13) or axis == ndim - 1:
        return emit(gb, op_type, [x], output_names, axis=axis)
    perm = [a for a in range(ndim) if a != axis] + [axis]
    y = gb.op(op_type, [gb.op('Transpose', [x], perm=perm)], axis=ndim - 1)
    return emit(gb, 'Transpose', [y], output_names,
                perm=[int(i) for i in numpy.argsort(perm)])


def where(gb, condition, x, y, dtype, output_names=None):
    """``x`` where the boolean ``condition`` holds, else ``y``; before
    opset 9 (no Where) ``x c + y (1 - c)`` with c the condition as
    ``dtype`` (the same for finite values)."""
    if since(gb, 9):
        return emit(gb, 'Where', [condition, x, y], output_names)
    taken = gb.op('Cast', [condition],
                  to=onnx.helper.np_dtype_to_tensor_dtype(numpy.dtype(dtype)))
    rest = gb.op('Sub', [gb.const(1, dtype), taken])
    return emit(gb, 'Add', [gb.op('Mul', [x, taken]),
                            gb.op('Mul', [y, rest])], output_names)


def expand(gb, x, shape, dtype, output_names=None):
    """``x`` broadcast to ``shape``; before opset 8 (no Expand) added to
    zeros of that shape."""
    if since(gb, 8):
        return emit(gb, 'Expand', [x, _ints(gb, shape)], output_names)
    return emit(gb, 'Add', [x, gb.const(numpy.zeros(shape), dtype)],
                output_names)


def scalar(gb, params, value, index=0):
    """A Constant of ``value`` in the dtype of the input ``index``."""
    return gb.const(value, params.input_dtype(index))


def window_pads(dims, outsize, ksize, stride, pad, dilate=None):
    """ONNX ``pads`` (all begins, then all ends) of sliding windows over
    ``dims`` giving ``outsize``: Chainer's symmetric ``pad``, with the
    ends set so that exactly ``outsize`` windows fit (more where
    ``cover_all`` lets the last window reach past the input)."""
    dilate = dilate or (1,) * len(dims)
    ends = [max((o - 1) * s + (k - 1) * dl + 1 - d - p, 0)
            for d, o, k, s, p, dl in zip(dims, outsize, ksize, stride, pad,
                                         dilate)]
    return list(pad) + ends
