"""Exporting a model's forward call as an ONNX model.

Supported opsets: 7 to 28 of the default ONNX domain (28 is the newest
that both onnx 1.23 and onnxruntime 1.32 know); the default is the newest
of those the installed onnx knows, at which onnxruntime runs every
converter's graph.
"""
import collections
import os
import warnings

import onnx

from kusari.array import backend
from kusari.array import configuration
from kusari.autograd import backward
from kusari.autograd.variable import Variable
from kusari.onnx import graph
from kusari.onnx import mapping
from kusari.onnx import onnx_helper
from kusari.onnx.context import Context

MINIMUM_OPSET_VERSION = 7
MAXIMUM_OPSET_VERSION = 28


def convert_parameter(parameter, context):
    """The TensorProto of ``parameter`` (a Parameter, Variable or array)
    named as ``context`` names it."""
    if not (isinstance(parameter, Variable)
            or backend.is_array_supported(parameter)):
        raise ValueError(
            f'convert_parameter: parameter must be a Parameter, a Variable '
            f'or an array; got {type(parameter).__name__}')
    return onnx_helper.to_tensor(parameter, context.get_name(parameter))


def _opset_version(opset_version):
    newest = min(MAXIMUM_OPSET_VERSION, onnx.defs.onnx_opset_version())
    if opset_version is None:
        return newest
    if not isinstance(opset_version, int) or isinstance(opset_version, bool) \
            or not MINIMUM_OPSET_VERSION <= opset_version <= newest:
        raise ValueError(
            f'export: opset_version must be an int from '
            f'{MINIMUM_OPSET_VERSION} to {newest}; got {opset_version!r}')
    return opset_version


def _is_input(x):
    return isinstance(x, Variable) or backend.is_array_supported(x)


def _renamed(caller, what, defaults, names):
    """The names of the inputs or outputs: ``defaults`` (a list) replaced
    by ``names`` (None, a str, a list or tuple, or a dict from default
    names to new ones)."""
    if names is None:
        return defaults
    if isinstance(names, str):
        names = [names]
    if isinstance(names, dict):
        unknown = set(names) - set(defaults)
        if unknown:
            raise ValueError(
                f'{caller}: {what} has keys {sorted(unknown)} that are not '
                f'among the default names {defaults}')
        return [names.get(name, name) for name in defaults]
    if not isinstance(names, (list, tuple)) or len(names) != len(defaults):
        raise ValueError(
            f'{caller}: {what} must be a str, a dict or a sequence of '
            f'{len(defaults)} names (one per tensor); got {names!r}')
    return list(names)


def _trace_inputs(args, input_names):
    """The arguments to call the model with (fresh Variables for the
    arrays and Variables), and ``name -> Variable`` of them."""
    def fresh(x):
        return Variable(x.array if isinstance(x, Variable) else x)

    if isinstance(args, dict):
        call = {key: fresh(x) if _is_input(x) else x
                for key, x in args.items()}
        found = [(key, x) for key, x in call.items() if _is_input(x)]
        call_args, call_kwargs = (), call
    else:
        if _is_input(args):
            args = (args,)
        elif not isinstance(args, (list, tuple)):
            raise TypeError(
                f'export: args must be an array, a Variable, or a list, '
                f'tuple or dict of them; got {type(args).__name__}')
        call_args = [fresh(x) if _is_input(x) else x for x in args]
        found = [(f'input_{i}', x) for i, x in
                 enumerate(x for x in call_args if _is_input(x))]
        call_kwargs = {}
    names = _renamed('export', 'input_names', [key for key, _ in found],
                     input_names)
    inputs = collections.OrderedDict(zip(names, [x for _, x in found]))
    return call_args, call_kwargs, inputs


def _named_outputs(outputs, output_names):
    if isinstance(outputs, dict):
        found = list(outputs.items())
    else:
        if isinstance(outputs, Variable):
            outputs = (outputs,)
        found = [(f'output_{i}', y) for i, y in enumerate(outputs)]
    for name, y in found:
        if not isinstance(y, Variable):
            raise TypeError(
                f'export: the model must return Variables (one, or a list, '
                f'tuple or dict of them); output {name!r} is a '
                f'{type(y).__name__}')
    names = _renamed('export', 'output_names', [key for key, _ in found],
                     output_names)
    return collections.OrderedDict(zip(names, [y for _, y in found]))


def _input_shapes(inputs, input_shapes):
    """The shapes the graph declares for ``inputs`` (an ordered dict
    ``name -> Variable``): ``input_shapes`` given for one input (a tuple),
    for each (a list, or a dict keyed as the inputs) or None (theirs).
    A side may be an int, None (unknown) or a str (a named dimension)."""
    arrays = list(inputs.values())
    if input_shapes is None:
        return [x.shape for x in arrays]
    if isinstance(input_shapes, tuple):
        input_shapes = [input_shapes]
    if isinstance(input_shapes, dict):
        missing = set(inputs) - set(input_shapes)
        if missing:
            raise ValueError(
                f'export: input_shapes has no shape for the inputs '
                f'{sorted(missing)}')
        input_shapes = [input_shapes[name] for name in inputs]
    if not isinstance(input_shapes, list) or \
            len(input_shapes) != len(arrays):
        raise ValueError(
            f'export: input_shapes must be a tuple (one input), or a list '
            f'or dict of one shape per input ({len(arrays)}); got '
            f'{input_shapes!r}')
    for name, x, shape in zip(inputs, arrays, input_shapes):
        if len(shape) != x.ndim:
            raise ValueError(
                f'export: input_shapes gives the input {name!r} of '
                f'{x.ndim} axes the shape {shape!r}')
    return [tuple(shape) for shape in input_shapes]


def _infer_output_shapes(onnx_model):
    """Forget the traced output shapes and declare what shape inference
    gives for the inputs' declared shapes instead."""
    for output in onnx_model.graph.output:
        for dim in output.type.tensor_type.shape.dim:
            dim.Clear()
    inferred = onnx.shape_inference.infer_shapes(onnx_model)
    for output, found in zip(onnx_model.graph.output,
                             inferred.graph.output):
        output.CopyFrom(found)


def export(model, args, filename=None, export_params=True,
           graph_name='Graph', save_text=False, opset_version=None,
           input_names=None, output_names=None, train=False,
           return_named_inout=False, external_converters=None,
           external_opset_imports=None, input_shapes=None,
           no_testcase=False):
    """Export ``model`` (a Chain) to ONNX by tracing one forward call.

    The model is called once with ``args`` under ``config.train =
    train``; every function it applies is converted to ONNX nodes,
    its parameters (named from their paths, see
    :func:`~kusari.onnx.onnx_helper.cleanse_param_name`) become
    initializers, and arrays it reads otherwise become constants.

    Args:
        model: the Link to call.
        args: an array or Variable (``model(args)``), a list or tuple of
            them (``model(*args)``) or a dict (``model(**args)``); the
            arrays and Variables are the graph's inputs.
        filename: a path or a writable binary file to save to, or None.
        export_params (bool): store the parameters as initializers; if
            False they become inputs of the graph.
        graph_name (str): the name of the ONNX graph.
        save_text (bool): also write the readable graph to
            ``filename + '.txt'`` (filename must be a path).
        opset_version (int): the opset of the default domain,
            :data:`MINIMUM_OPSET_VERSION` to :data:`MAXIMUM_OPSET_VERSION`;
            None for the newest the installed onnx knows.
        input_names, output_names: a str, a list or tuple (one per input
            or output), or a dict from the default names (``input_0``...,
            ``output_0``..., or the keys of a dict) to new ones.
        train (bool): ``config.train`` during the traced call.
        return_named_inout (bool): also return the inputs and outputs.
        external_converters (dict): ``function name -> converter`` used
            before the built-in converters.
        external_opset_imports (dict): ``domain -> version`` of the custom
            domains the external converters use.
        input_shapes: the shapes the graph declares for its inputs,
            instead of those traced: a tuple for one input, else a list
            (or a dict keyed as ``args``) of one per input. A side is an
            int, None or a str (a named dimension, such as ``'batch'``):
            the model then runs with any size there, as far as its
            functions do not fix it (a reshape to a traced batch size, a
            mean over the batch...); the outputs' shapes are inferred.
        no_testcase (bool): do not warn, when writing ``filename``, that
            :func:`export_testcase` also writes the inputs and outputs
            (as ONNX-Chainer warns).

    Returns:
        The ONNX ModelProto; with ``return_named_inout``, ``(model,
        inputs, outputs)``, the latter two ordered dicts ``name ->
        Variable``.
    """
    opset_version = _opset_version(opset_version)
    if save_text and not isinstance(filename, (str, os.PathLike)):
        raise ValueError('export: save_text needs filename to be a path; '
                         f'got {filename!r}')
    if filename is not None and not no_testcase:
        warnings.warn('export: exporting a model without its test case is '
                      'deprecated (as in ONNX-Chainer); use export_testcase, '
                      'or pass no_testcase=True', DeprecationWarning,
                      stacklevel=2)
    call_args, call_kwargs, inputs = _trace_inputs(args, input_names)
    shapes = _input_shapes(inputs, input_shapes)
    context = Context(model)
    for name, x in inputs.items():
        context.set_name(x, name, pinned=True)
    recorder = graph.Recorder()
    with configuration.using_config('train', train), \
            configuration.using_config('enable_backprop', True), \
            mapping.patch_functions(), recorder:
        outputs = model(*call_args, **call_kwargs)
    outputs = _named_outputs(outputs, output_names)
    for name, y in outputs.items():
        if y.creator_node is not None and context.get_name(y) is None:
            context.set_name(y, name, pinned=True)
    onnx_graph = graph.build_graph(
        recorder.functions, context, opset_version,
        external_converters or {}, graph_name, inputs, shapes, outputs,
        export_params)
    opset_imports = [onnx.helper.make_opsetid('', opset_version)] + [
        onnx.helper.make_opsetid(domain, version) for domain, version
        in (external_opset_imports or {}).items()]
    onnx_model = onnx.helper.make_model(
        onnx_graph, opset_imports=opset_imports, producer_name='kusari',
        ir_version=onnx.helper.find_min_ir_version_for(
            opset_imports, ignore_unknown=True))
    if onnx_model.ir_version < 4:
        # Before IR version 4 (opset 9) every initializer is also an input.
        onnx_model.graph.input.extend(
            onnx.helper.make_tensor_value_info(t.name, t.data_type, t.dims)
            for t in onnx_model.graph.initializer)
    if input_shapes is not None:
        _infer_output_shapes(onnx_model)
    if filename is not None:
        onnx.save_model(onnx_model, filename)
        if save_text:
            with open(f'{os.fspath(filename)}.txt', 'w') as file:
                file.write(onnx.printer.to_text(onnx_model.graph))
    if return_named_inout:
        return onnx_model, inputs, outputs
    return onnx_model


def export_testcase(model, args, out_dir, output_grad=False, **kwargs):
    """Export ``model`` with its inputs and outputs as an ONNX test case.

    Writes ``out_dir/model.onnx`` and ``out_dir/test_data_set_0/`` with
    ``input_<i>.pb`` and ``output_<i>.pb`` (serialized TensorProtos,
    named as in the graph); with ``output_grad``, also
    ``gradient_<i>.pb``: the gradient of every exported parameter, after
    backpropagating ones from the outputs.

    Args:
        model, args: as for :func:`export`.
        out_dir (str): the directory to write (made if missing).
        output_grad (bool): also write the parameters' gradients.
        kwargs: the other arguments of :func:`export`.

    Returns:
        The ONNX ModelProto.
    """
    for name in ('return_named_inout', 'no_testcase'):
        kwargs.pop(name, None)
    test_dir = os.path.join(out_dir, 'test_data_set_0')
    os.makedirs(test_dir, exist_ok=True)
    if output_grad:
        model.cleargrads()
    onnx_model, inputs, outputs = export(
        model, args, filename=os.path.join(out_dir, 'model.onnx'),
        return_named_inout=True, no_testcase=True, **kwargs)
    for kind, tensors in (('input', inputs), ('output', outputs)):
        for i, (name, var) in enumerate(tensors.items()):
            onnx_helper.write_tensor_pb(
                os.path.join(test_dir, f'{kind}_{i}.pb'), name, var.array)
    if output_grad:
        backward(
            list(outputs.values()),
            [var.xp.ones_like(var.array) for var in outputs.values()])
        exported = {tensor.name for tensor in onnx_model.graph.initializer}
        i = 0
        for path, param in model.namedparams():
            name = onnx_helper.cleanse_param_name(path)
            if name in exported and param.grad is not None:
                onnx_helper.write_tensor_pb(
                    os.path.join(test_dir, f'gradient_{i}.pb'), name,
                    param.grad)
                i += 1
    return onnx_model
