"""The converter registry, and what a converter is given.

A converter is a callable ``converter(params)`` taking a
:class:`ConvertParams` and returning the ONNX nodes (NodeProtos) that
compute ``params.output_names`` from ``params.input_names``. It is found
by the function's name (its class name, see
:func:`~kusari.onnx.onnx_helper.get_func_name`).
"""
from kusari.onnx import onnx_helper

converters = {}
"""dict: function name -> converter, for every supported function."""


def register(*func_names):
    """Decorator: register a converter under ``func_names``."""
    def decorate(converter):
        for name in func_names:
            converters[name] = converter
        return converter
    return decorate


class ConvertParams:
    """One function application to convert.

    Attributes:
        func: the FunctionNode; its attributes (``stride``, ``axis``...)
            and ``func.inputs`` (graph nodes with ``shape`` and ``dtype``)
            describe it.
        opset_version (int): the default domain's opset of the export.
        input_names, output_names (tuple of str): the ONNX tensors it
            reads and the ones it must write, one per input and output.
        context: the export's :class:`~kusari.onnx.context.Context`.
        node_name (str): a unique name of this application, the prefix
            of the names its nodes make.
    """

    def __init__(self, func, opset_version, input_names, output_names,
                 context, node_name):
        self.func = func
        self.opset_version = opset_version
        self.input_names = tuple(input_names)
        self.output_names = tuple(output_names)
        self.context = context
        self.node_name = node_name

    def graph_builder(self):
        """A GraphBuilder naming its tensors after this application."""
        return onnx_helper.GraphBuilder(self.node_name, self.opset_version,
                                        self.context)

    def input_shape(self, index=0):
        """The shape of the function's input ``index``."""
        return self.func.inputs[index].shape

    def input_dtype(self, index=0):
        """The dtype of the function's input ``index``."""
        return self.func.inputs[index].dtype
