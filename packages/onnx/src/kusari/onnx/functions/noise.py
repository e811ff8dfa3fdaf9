"""Converters of the noise functions."""
import numpy

from kusari.onnx.functions import _ops
from kusari.onnx.functions._registry import register


@register('Dropout')
def convert_dropout(params):
    """ONNX's Dropout, which runtimes apply as the identity outside
    training: an exported model infers like the test-mode forward."""
    gb = params.graph_builder()
    ratio = float(params.func.ratio)
    if _ops.since(gb, 12):  # the ratio became an input
        gb.op_output_named(
            'Dropout', [params.input_names[0], gb.const(ratio, numpy.float32)],
            params.output_names)
    else:
        gb.op_output_named('Dropout', params.input_names, params.output_names,
                           ratio=ratio)
    return gb.nodes()
