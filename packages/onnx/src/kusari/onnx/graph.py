"""Tracing one forward call, and turning what it applied into an ONNX
graph.

A :class:`Recorder` (a function hook) keeps every FunctionNode applied at
the top level during the call; functions applied inside another one's
forward (a fake function node's implementation, say) belong to it and
are left out. :func:`build_graph` then names every tensor and asks each
function's converter for its nodes.
"""
import collections

import onnx

from kusari.autograd import function_hook
from kusari.onnx import onnx_helper
from kusari.onnx.functions import ConvertParams
from kusari.onnx.functions import converters


class Recorder(function_hook.FunctionHook):
    """Records the FunctionNodes applied while it is registered, with
    their input arrays (``functions``: a list of pairs)."""

    name = 'kusari.onnx.Recorder'

    def __init__(self):
        self.functions = []
        self._depth = 0

    def forward_preprocess(self, function, in_data):
        self._depth += 1

    def forward_postprocess(self, function, in_data):
        self._depth -= 1
        if self._depth == 0:
            self.functions.append((function, in_data))


# Where Chainer's class names differ from ours: external converters
# written for ONNX-Chainer are found under the name Chainer gives.
_CHAINER_NAMES = {'PReLU': 'PReLUFunction', 'Rsqrt': 'RsqrtGPU'}
_CHAINER_2D_NAMES = {'AveragePoolingND': 'AveragePooling2D',
                     'MaxPoolingND': 'MaxPooling2D',
                     'UnpoolingND': 'Unpooling2D'}


def chainer_func_name(func, func_name):
    """The class name Chainer v7 gives the function named ``func_name``."""
    window = getattr(func, 'window', None)
    if func_name in _CHAINER_2D_NAMES and window and window.ndim == 2:
        return _CHAINER_2D_NAMES[func_name]
    return _CHAINER_NAMES.get(func_name, func_name)


def _converter(func, func_name, external_converters):
    converter = (
        external_converters.get(func_name)
        or external_converters.get(chainer_func_name(func, func_name))
        or converters.get(func_name))
    if converter is None:
        raise ValueError(
            f'export: the function {func_name} ({type(func).__module__}.'
            f'{type(func).__qualname__}) has no ONNX converter; give one '
            f'with external_converters={{{func_name!r}: converter}}')
    return converter


def build_graph(functions, context, opset_version, external_converters,
                graph_name, inputs, input_shapes, outputs, export_params):
    """The ONNX GraphProto of the traced ``functions``.

    Args:
        functions: the recorded ``(FunctionNode, input arrays)``, in the
            order applied.
        context: the Context, with the inputs and outputs already named.
        inputs, outputs: dicts ``name -> Variable``.
        input_shapes: the shape to declare for each input.
    """
    counts = collections.Counter()
    nodes = []
    for func, in_data in functions:
        if func.inputs is None:
            continue  # applied to constants only: its outputs are arrays
        func_name = onnx_helper.get_func_name(func)
        node_name = f'{func_name}_{counts[func_name]}'
        counts[func_name] += 1
        input_names = [context.input_name(node, array)
                       for node, array in zip(func.inputs, in_data)]
        output_names = []
        for i, ref in enumerate(func.outputs):
            node = ref()  # None where nothing holds the output any more
            name = None if node is None else context.get_name(node)
            if name is None:
                default = node_name if len(func.outputs) == 1 \
                    else f'{node_name}_{i}'
                name = context.new_name(default) if node is None \
                    else context.set_name(node, default)
            output_names.append(name)
        params = ConvertParams(func, opset_version, input_names,
                               output_names, context, node_name)
        nodes.extend(
            _converter(func, func_name, external_converters)(params))
    nodes.extend(_identities(context, outputs))
    parameters = context.parameters
    graph_inputs = [_value_info(name, var, shape) for (name, var), shape
                    in zip(inputs.items(), input_shapes)]
    if not export_params:
        graph_inputs += [onnx.helper.make_tensor_value_info(
            p.name, p.data_type, p.dims) for p in parameters]
        parameters = []
    return onnx.helper.make_graph(
        nodes, graph_name, graph_inputs,
        [_value_info(name, var) for name, var in outputs.items()],
        initializer=parameters + context.constants)


def _identities(context, outputs):
    """Identity nodes for the outputs that no traced function wrote (an
    input, a parameter, a value computed outside the graph, or an output
    returned twice)."""
    nodes = []
    for name, var in outputs.items():
        source = context.input_name(var.node, var.array)
        if source != name:
            nodes.append(onnx_helper.make_node('Identity', [source], [name],
                                               f'{name}/Identity'))
    return nodes


def _value_info(name, var, shape=None):
    return onnx.helper.make_tensor_value_info(
        name, onnx.helper.np_dtype_to_tensor_dtype(var.dtype),
        var.shape if shape is None else shape)
