"""Helpers to build ONNX nodes and tensors, used by the converters.

A converter emits its nodes through a :class:`GraphBuilder`, which names
the intermediate tensors and the nodes uniquely from a prefix (the name
of the function application being converted), so the exported graph has
stable, readable names.
"""
import itertools

import numpy
import onnx
from onnx import numpy_helper

from kusari.array import backend

_FUNC_NAME = '_onnx_func_name'
_anonymous = itertools.count()


def set_func_name(func, func_name):
    """Give the FunctionNode ``func`` the name its converter is found by
    (instead of its class name)."""
    setattr(func, _FUNC_NAME, func_name)


def get_func_name(func):
    """The name the converter of the FunctionNode ``func`` is registered
    under: the one given by :func:`set_func_name`, else its class name
    (of the old-style Function for an adapter of one)."""
    default = type(getattr(func, '_function', func)).__name__
    return getattr(func, _FUNC_NAME, default)


def make_node(op_type, input_names, output_names, name=None, **attributes):
    """An ONNX NodeProto (``onnx.helper.make_node``) of the default domain
    unless ``domain=`` is given; attributes as keywords."""
    return onnx.helper.make_node(op_type, list(input_names),
                                 list(output_names), name=name, **attributes)


def cleanse_param_name(name):
    """The ONNX tensor name of a parameter path: ``'/l1/W'`` becomes
    ``'param_l1_W'`` (a valid identifier, unlike a path)."""
    return 'param' + name.replace('/', '_')


def to_host(value, dtype=None):
    """``value`` (a NumPy or CuPy array, or anything NumPy takes) as a
    NumPy array, of ``dtype`` if given."""
    if backend.is_array_supported(value):
        value = backend.CpuDevice().send_array(value)
    return numpy.asarray(value, dtype)


def to_tensor(value, name):
    """The TensorProto named ``name`` of ``value`` (an array on any
    device, a Variable or a Parameter)."""
    return numpy_helper.from_array(to_host(getattr(value, 'array', value)),
                                   name)


def write_tensor_pb(filename, name, value):
    """Write the array ``value`` as a serialized TensorProto named
    ``name`` to ``filename`` (the ONNX test data set format)."""
    with open(filename, 'wb') as file:
        file.write(to_tensor(value, name).SerializeToString())


class GraphBuilder:
    """Collects the consecutive ONNX nodes of one conversion.

    Args:
        prefix (str): the start of every tensor and node name it makes;
            None for a fresh anonymous one.
        opset_version (int): the default domain's opset the nodes are
            for; None for the newest.
        context: the export's :class:`~kusari.onnx.context.Context`, which
            takes the constants that opsets before 9 cannot hold in a
            Constant node (any but a float one) as initializers.
    """

    def __init__(self, prefix=None, opset_version=None, context=None):
        if prefix is None:
            prefix = f'gb{next(_anonymous)}'
        self.prefix = prefix
        self.opset_version = opset_version
        self.context = context
        self._nodes = []
        self._count = itertools.count()

    def _name(self, op_type):
        return f'{self.prefix}/{op_type}_{next(self._count)}'

    def op(self, op_type, input_names, num_outputs=1, **attributes):
        """Add a node with fresh output names.

        Returns:
            The output name (a str) when ``num_outputs`` is 1, else a
            tuple of them.
        """
        name = self._name(op_type)
        outputs = [name] if num_outputs == 1 else \
            [f'{name}:{i}' for i in range(num_outputs)]
        self._nodes.append(
            make_node(op_type, input_names, outputs, name, **attributes))
        return outputs[0] if num_outputs == 1 else tuple(outputs)

    def op_output_named(self, op_type, input_names, output_names,
                        **attributes):
        """Add a node writing the given ``output_names``; return them."""
        self._nodes.append(make_node(op_type, input_names, output_names,
                                     self._name(op_type), **attributes))
        return tuple(output_names)

    def const(self, value, dtype=None):
        """A Constant node holding ``value`` (an array or a scalar, of
        ``dtype`` if given), or an initializer of the context where the
        opset's Constant cannot hold its dtype; returns its name."""
        value = to_host(value, dtype)
        if self.context is not None and self.opset_version is not None \
                and self.opset_version < 9 and value.dtype.kind != 'f':
            return self.context.add_const(value, self._name('Constant'))
        return self.op('Constant', [], value=numpy_helper.from_array(value))

    def nodes(self, output_names=None):
        """The nodes made so far; with ``output_names``, the outputs of
        the last node are renamed to them first."""
        if output_names is not None:
            last = self._nodes[-1]
            if len(last.output) != len(output_names):
                raise ValueError(
                    f'GraphBuilder.nodes: the last node ({last.op_type}) '
                    f'has {len(last.output)} outputs, got '
                    f'{len(output_names)} output_names')
            del last.output[:]
            last.output.extend(output_names)
        return list(self._nodes)
