"""Exporting a model's forward call as an ONNX model.

Supported opsets: 13 to 26 of the default ONNX domain (26 is the newest
that both onnx 1.23 and onnxruntime 1.31 know); the default is the newest
of those the installed onnx knows.
"""
import collections
import os

import onnx

from kusari.array import backend
from kusari.array import configuration
from kusari.autograd import backward
from kusari.autograd.variable import Variable
from kusari.onnx import graph
from kusari.onnx import onnx_helper
from kusari.onnx.context import Context

MIN_OPSET_VERSION = 13
MAX_OPSET_VERSION = 26


def _opset_version(opset_version):
    newest = min(MAX_OPSET_VERSION, onnx.defs.onnx_opset_version())
    if opset_version is None:
        return newest
    if not isinstance(opset_version, int) or isinstance(opset_version, bool) \
            or not MIN_OPSET_VERSION <= opset_version <= newest:
        raise ValueError(
            f'export: opset_version must be an int from '
            f'{MIN_OPSET_VERSION} to {newest}; got {opset_version!r}')
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


def export(model, args, filename=None, export_params=True,
           graph_name='Graph', save_text=False, opset_version=None,
           train=False, return_named_inout=False, external_converters=None,
           external_opset_imports=None, input_names=None,
           output_names=None):
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
        opset_version (int): the opset of the default domain, 13 to 26;
            None for the newest.
        train (bool): ``config.train`` during the traced call.
        return_named_inout (bool): also return the inputs and outputs.
        external_converters (dict): ``function name -> converter`` used
            before the built-in converters.
        external_opset_imports (dict): ``domain -> version`` of the custom
            domains the external converters use.
        input_names, output_names: a str, a list or tuple (one per input
            or output), or a dict from the default names (``input_0``...,
            ``output_0``..., or the keys of a dict) to new ones.

    Returns:
        The ONNX ModelProto; with ``return_named_inout``, ``(model,
        inputs, outputs)``, the latter two ordered dicts ``name ->
        Variable``.
    """
    opset_version = _opset_version(opset_version)
    if save_text and not isinstance(filename, (str, os.PathLike)):
        raise ValueError('export: save_text needs filename to be a path; '
                         f'got {filename!r}')
    call_args, call_kwargs, inputs = _trace_inputs(args, input_names)
    context = Context(model)
    for name, x in inputs.items():
        context.set_name(x, name, pinned=True)
    recorder = graph.Recorder()
    with configuration.using_config('train', train), \
            configuration.using_config('enable_backprop', True), recorder:
        outputs = model(*call_args, **call_kwargs)
    outputs = _named_outputs(outputs, output_names)
    for name, y in outputs.items():
        if y.creator_node is not None and context.get_name(y) is None:
            context.set_name(y, name, pinned=True)
    onnx_graph = graph.build_graph(
        recorder.functions, context, opset_version,
        external_converters or {}, graph_name, inputs, outputs,
        export_params)
    opset_imports = [onnx.helper.make_opsetid('', opset_version)] + [
        onnx.helper.make_opsetid(domain, version) for domain, version
        in (external_opset_imports or {}).items()]
    onnx_model = onnx.helper.make_model(
        onnx_graph, opset_imports=opset_imports, producer_name='kusari',
        ir_version=onnx.helper.find_min_ir_version_for(
            opset_imports, ignore_unknown=True))
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
    kwargs.pop('return_named_inout', None)
    test_dir = os.path.join(out_dir, 'test_data_set_0')
    os.makedirs(test_dir, exist_ok=True)
    if output_grad:
        model.cleargrads()
    onnx_model, inputs, outputs = export(
        model, args, filename=os.path.join(out_dir, 'model.onnx'),
        return_named_inout=True, **kwargs)
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
