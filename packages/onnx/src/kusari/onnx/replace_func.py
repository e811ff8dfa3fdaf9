"""Wrapping a Python function as one FunctionNode, so that an export
sees it as a single function (converted by an external converter)
instead of the functions it is made of."""
import functools
import inspect
import warnings

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd import graph_mode
from kusari.autograd.variable import Variable
from kusari.onnx import onnx_helper


class _Input:
    """The place of the input ``index`` in the wrapped call's
    arguments."""

    def __init__(self, index):
        self.index = index


def _is_input(x):
    return isinstance(x, Variable) or backend.is_array_supported(x)


def _extract(value, inputs):
    """``value`` with every Variable or array (also inside lists and
    tuples) replaced by an :class:`_Input` appended to ``inputs``."""
    if _is_input(value):
        inputs.append(value)
        return _Input(len(inputs) - 1)
    if isinstance(value, (list, tuple)):
        return type(value)(_extract(v, inputs) for v in value)
    return value


def _fill(value, inputs):
    """The inverse of :func:`_extract`, with ``inputs`` in place."""
    if isinstance(value, _Input):
        return inputs[value.index]
    if isinstance(value, (list, tuple)):
        return type(value)(_fill(v, inputs) for v in value)
    return value


def _flatten(value, leaves):
    """The skeleton of ``value``: its lists and tuples (a dict: its
    values, as a tuple) with each other element replaced by its index in
    ``leaves``, to which it is appended."""
    if isinstance(value, dict):
        value = tuple(value.values())
    if isinstance(value, (list, tuple)):
        return type(value)(_flatten(v, leaves) for v in value)
    leaves.append(value)
    return len(leaves) - 1


def _rebuild(skeleton, leaves):
    """The inverse of :func:`_flatten`."""
    if isinstance(skeleton, (list, tuple)):
        return type(skeleton)(_rebuild(s, leaves) for s in skeleton)
    return leaves[skeleton]


def _holds_input(value):
    return isinstance(value, _Input) or (
        isinstance(value, (list, tuple)) and any(map(_holds_input, value)))


class WrappedFunctionNode(function_node.FunctionNode):
    """Applies ``func(*args, **kwargs)`` as one node: forward runs it on
    the input arrays without a graph, backward runs it again on the
    inputs and differentiates that.

    Its other arguments are attributes of the node, for the converter
    (see :func:`fake_as_funcnode`).
    """

    def __init__(self, name, func, args, kwargs, attributes):
        onnx_helper.set_func_name(self, name)
        self.func = func
        self.args = args
        self.kwargs = kwargs
        for key, value in attributes.items():
            setattr(self, key, value)

    @property
    def label(self):
        return onnx_helper.get_func_name(self)

    def arguments(self, inputs):
        """``(args, kwargs)`` of the wrapped call with ``inputs[i]`` in
        place of its input ``i`` (a converter passes its input names)."""
        return _fill(self.args, inputs), _fill(self.kwargs, inputs)

    def reconstruct_return_value(self, outputs):
        """``outputs`` (one per output of the node, such as a converter's
        output names) arranged as the wrapped function returned its
        values: nested lists and tuples kept, a dict as the tuple of its
        values, a single value as itself."""
        return _rebuild(self._skeleton, outputs)

    def _call(self, inputs):
        args, kwargs = self.arguments(inputs)
        leaves = []
        self._skeleton = _flatten(self.func(*args, **kwargs), leaves)
        return leaves

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        with graph_mode.no_backprop_mode():
            outputs = self._call(inputs)
        xp = backend.get_array_module(*inputs)
        return tuple(xp.asarray(getattr(y, 'array', y)) for y in outputs)

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        with graph_mode.force_backprop_mode():
            outputs = self._call(inputs)
        pairs = [(y, gy) for y, gy in zip(outputs, grad_outputs)
                 if gy is not None and isinstance(y, Variable)]
        return function_node.grad(
            [y for y, _ in pairs], [inputs[i] for i in indexes],
            [gy for _, gy in pairs], enable_double_backprop=True)


def _defaults(func, n_args, kwargs):
    """``(keyword, default)`` of the parameters of ``func`` a call with
    ``n_args`` positional arguments and ``kwargs`` leaves out."""
    try:
        parameters = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):  # no signature to read
        return []
    return [(p.name, p.default) for p in parameters[n_args:]
            if p.default is not p.empty and p.name not in kwargs
            and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def fake_as_funcnode(alt_func, name, rename_attributes=None,
                     experimental_warning=True):
    """Make ``alt_func`` act as one FunctionNode named ``name``.

    Calling the returned function applies a
    :class:`WrappedFunctionNode`: its inputs are the Variables and arrays
    among the arguments (also inside lists and tuples), its outputs the
    values ``alt_func`` returns (a Variable or array, or a list, tuple or
    dict of them: a dict gives its values), as Variables. The other
    arguments become attributes of the node: ``arg<i>`` for positional
    argument ``i``, the keyword for keyword arguments and for the
    defaults of the parameters the call leaves out. An export then
    converts the node with the converter registered under ``name`` (give
    one with ``external_converters``).

    Args:
        alt_func: the function to wrap.
        name (str): the function name its converter is found by.
        rename_attributes: pairs ``(position or keyword, new name)``
            renaming attributes.
        experimental_warning (bool): warn that this is experimental.

    Returns:
        The wrapped function: one Variable; for several outputs, as
        ``alt_func`` returns them (its lists and tuples, nested too, with
        Variables in them; a dict or a list at the top as a tuple).
    """
    renames = dict(rename_attributes or ())
    for key in renames:
        if not isinstance(key, (int, str)) or isinstance(key, bool):
            raise TypeError(
                f'fake_as_funcnode: rename_attributes must hold pairs '
                f'(position or keyword, new name); got the key {key!r}')

    @functools.wraps(alt_func)
    def wrapped(*args, **kwargs):
        if experimental_warning:
            warnings.warn('fake_as_funcnode is experimental: its behaviour '
                          'may change', FutureWarning, stacklevel=2)
        inputs = []
        args = _extract(args, inputs)
        kwargs = {key: _extract(v, inputs) for key, v in kwargs.items()}
        if not inputs:
            raise ValueError(
                f'fake_as_funcnode ({name}): the call needs at least one '
                f'Variable or array argument to trace')
        attributes = {}
        given = list(enumerate(args)) + list(kwargs.items())
        for key, value in given + _defaults(alt_func, len(args), kwargs):
            if not _holds_input(value):
                default = f'arg{key}' if isinstance(key, int) else key
                attributes[renames.get(key, default)] = value
        node = WrappedFunctionNode(name, alt_func, args, kwargs, attributes)
        outputs = node.apply(inputs)
        if len(outputs) == 1:
            return outputs[0]
        outputs = node.reconstruct_return_value(outputs)
        return tuple(outputs) if isinstance(outputs, list) else outputs

    return wrapped


def as_funcnode(name, rename_attributes=None):
    """Decorator form of :func:`fake_as_funcnode`: the decorated
    function acts as one FunctionNode named ``name``."""
    def decorate(func):
        return fake_as_funcnode(func, name, rename_attributes)
    return decorate
