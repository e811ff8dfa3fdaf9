"""Converters of the noise functions."""
import numpy

from kusari.onnx.functions._registry import register


@register('Dropout')
def convert_dropout(params):
    """ONNX's Dropout, which runtimes apply as the identity outside
    training: an exported model infers like the test-mode forward."""
    gb = params.graph_builder()
    ratio = gb.const(params.func.ratio, numpy.float32)
    gb.op_output_named('Dropout', [params.input_names[0], ratio],
                       params.output_names)
    return gb.nodes()
