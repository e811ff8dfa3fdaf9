"""Converters of the loss functions."""
import numpy
import onnx

from kusari.onnx.functions import _ops
from kusari.onnx.functions._registry import register


def _cross_entropies(gb, params, x, t, kept, output_names):
    """The loss of each position (zero where ignored, class-weighted):
    ONNX's SoftmaxCrossEntropyLoss from opset 12; before, minus the
    log-softmax over the classes (axis 1) at the label, picked by a
    one-hot mask."""
    func = params.func
    dtype = params.input_dtype(0)
    shape = params.input_shape(0)
    if _ops.since(gb, 12):
        inputs = [x, t]
        if func.class_weight is not None:
            inputs.append(gb.const(func.class_weight, dtype))
        return _ops.emit(gb, 'SoftmaxCrossEntropyLoss', inputs, output_names,
                         reduction='none',
                         ignore_index=int(func.ignore_label))
    axes = (1, shape[1]) + (1,) * (len(shape) - 2)
    one_hot = gb.op('Cast', [gb.op('Equal', [
        _ops.unsqueeze(gb, t, [1]),
        gb.const(numpy.arange(shape[1]).reshape(axes), numpy.int64)])],
        to=onnx.helper.np_dtype_to_tensor_dtype(dtype))
    if func.class_weight is not None:
        one_hot = gb.op('Mul', [one_hot, gb.const(
            numpy.reshape(func.class_weight, axes), dtype)])
    log_p = _ops.softmax(gb, 'LogSoftmax', x, 1, len(shape))
    picked = _ops.reduce(gb, 'ReduceSum', gb.op('Mul', [one_hot, log_p]),
                         [1], False)
    return _ops.emit(gb, 'Mul', [gb.op('Neg', [picked]), kept],
                     output_names)


@register('SoftmaxCrossEntropy')
def convert_softmax_cross_entropy(params):
    """The cross entropy of each position, then Chainer's reduction: the
    sum divided by the number of kept positions (``normalize``) or by the
    batch size."""
    func = params.func
    x, t = params.input_names
    gb = params.graph_builder()
    t = gb.op('Cast', [t], to=onnx.TensorProto.INT64)
    kept = gb.op('Cast', [gb.op('Not', [gb.op('Equal', [
        t, gb.const(func.ignore_label, numpy.int64)])])],
        to=onnx.helper.np_dtype_to_tensor_dtype(params.input_dtype(0)))
    if func.reduce == 'no':
        _cross_entropies(gb, params, x, t, kept, params.output_names)
        return gb.nodes()
    total = _ops.reduce(gb, 'ReduceSum', _cross_entropies(
        gb, params, x, t, kept, None), None, False)
    if func.normalize:
        count = gb.op('Max', [_ops.reduce(gb, 'ReduceSum', kept, None, False),
                              _ops.scalar(gb, params, 1)])
    else:
        count = _ops.scalar(gb, params, params.input_shape(0)[0])
    gb.op_output_named('Div', [total, count], params.output_names)
    return gb.nodes()
