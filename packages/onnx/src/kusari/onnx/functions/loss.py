"""Converters of the loss functions."""
import onnx

from kusari.onnx.functions import _ops
from kusari.onnx.functions._registry import register


@register('SoftmaxCrossEntropy')
def convert_softmax_cross_entropy(params):
    """ONNX's SoftmaxCrossEntropyLoss per position (zero where ignored,
    class-weighted), then Chainer's reduction: the sum divided by the
    number of kept positions (``normalize``) or by the batch size."""
    func = params.func
    x, t = params.input_names
    gb = params.graph_builder()
    t = gb.op('Cast', [t], to=onnx.TensorProto.INT64)
    inputs = [x, t]
    if func.class_weight is not None:
        inputs.append(gb.const(func.class_weight, params.input_dtype(0)))
    if func.reduce == 'no':
        gb.op_output_named('SoftmaxCrossEntropyLoss', inputs,
                           params.output_names, reduction='none',
                           ignore_index=int(func.ignore_label))
        return gb.nodes()
    loss = gb.op('SoftmaxCrossEntropyLoss', inputs, reduction='none',
                 ignore_index=int(func.ignore_label))
    total = _ops.reduce(gb, params, 'ReduceSum', loss, None, False)
    if func.normalize:
        kept = gb.op('Cast', [
            gb.op('Not', [gb.op('Equal', [
                t, gb.const(func.ignore_label, 'int64')])])],
            to=onnx.helper.np_dtype_to_tensor_dtype(params.input_dtype(0)))
        count = gb.op('Max', [
            _ops.reduce(gb, params, 'ReduceSum', kept, None, False),
            _ops.scalar(gb, params, 1)])
    else:
        count = _ops.scalar(gb, params, params.input_shape(0)[0])
    gb.op_output_named('Div', [total, count], params.output_names)
    return gb.nodes()
