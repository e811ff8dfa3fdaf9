"""Node patterns shared by the converters of several families."""
import numpy

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


def reduce(gb, params, op_type, x, axes, keepdims, output_names=None):
    """An ONNX reduction of ``x`` over ``axes`` (None: every axis), with
    the axes as an attribute or an input as the opset asks."""
    attributes = {'keepdims': int(bool(keepdims))}
    inputs = [x]
    if axes is not None:
        since = _AXES_INPUT_SINCE.get(op_type, _AXES_INPUT_DEFAULT)
        if params.opset_version >= since:
            inputs.append(gb.const(list(axes), numpy.int64))
        else:
            attributes['axes'] = list(axes)
    if output_names is None:
        return gb.op(op_type, inputs, **attributes)
    return gb.op_output_named(op_type, inputs, output_names, **attributes)[0]


def reshape(gb, x, shape, output_names=None):
    """Reshape ``x`` to ``shape`` (a tuple of ints)."""
    inputs = [x, gb.const(list(shape), numpy.int64)]
    if output_names is None:
        return gb.op('Reshape', inputs)
    return gb.op_output_named('Reshape', inputs, output_names)[0]


def unsqueeze(gb, x, axes):
    """Insert length-one axes at ``axes``."""
    return gb.op('Unsqueeze', [x, gb.const(list(axes), numpy.int64)])


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
