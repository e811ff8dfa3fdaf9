"""FunctionNode: one differentiable operation, and a node of the graph.

``forward`` computes on raw arrays; ``backward`` computes on Variables with
other FunctionNodes, so gradients are differentiable again. ``apply`` is the
hot path: check, forward, wrap the outputs and, only when a graph is being
recorded, link the nodes.

:class:`GradientSum` is the one node the engine applies itself: where
gradients meet, it adds them (the library's ``+`` is not the engine's).
"""
import operator
import sys
import traceback
import types
import weakref

import numpy

from kusari.array import lazy_cupy
from kusari.array import backend
from kusari.autograd import _state
from kusari.autograd import function_hook
from kusari.autograd.utils import type_check
from kusari.autograd.variable import Variable
from kusari.autograd.variable import VariableNode

_bare = Variable._bare
_output = Variable._output
_ndarray = numpy.ndarray
_modules = sys.modules
_weakref = weakref.ref
_MethodType = types.MethodType
_check_types = type_check.check_types
_config_local = _state.config_local
_global_config = _state.global_config
_hook_state = _state.function_hooks
_check_finite = _state.check_finite
_targets_only = _state.targets_only


class ForwardByDevice:
    """``forward`` that dispatches to ``forward_cpu`` or ``forward_gpu`` by
    the array module of the inputs; shared by FunctionNode and the old-style
    Function."""

    def forward(self, inputs):
        """Compute the output arrays from input arrays (a tuple each).

        By default dispatches to :meth:`forward_cpu` or :meth:`forward_gpu`
        by the array module of the inputs.
        """
        if backend.get_array_module(*inputs) is numpy:
            return self.forward_cpu(inputs)
        return self.forward_gpu(inputs)

    def forward_cpu(self, inputs):
        raise NotImplementedError(
            f'{self.label} implements neither forward nor forward_cpu')

    def forward_gpu(self, inputs):
        raise NotImplementedError(
            f'{self.label} implements neither forward nor forward_gpu')


class FunctionNode(ForwardByDevice):
    """A differentiable function and its node in the computational graph.

    Subclasses implement :meth:`forward` (or :meth:`forward_cpu` and
    :meth:`forward_gpu`) on arrays and :meth:`backward` on Variables, and
    may implement :meth:`check_type_forward`. A node is applied once; make
    a new instance per call.
    """

    inputs = None
    outputs = None
    rank = 0
    stack = None
    lazy_grad_sum = False
    _input_indexes_to_retain = None
    _output_indexes_to_retain = None
    _retained_output_data = None
    _local_function_hooks = None
    _type_checked = False
    _passed_type_checks = None
    _remembered_check = None
    _read_type_check_attributes = None
    _accumulates = False
    _has_array_backward = False

    #: The attributes of the node that :meth:`check_type_forward` reads,
    #: as a tuple of names, or None (the default) where that is not
    #: declared. A class names them where its check reads nothing else of
    #: the node but class attributes, depends on its inputs' shapes and
    #: dtypes only and changes nothing, and where their values are
    #: hashable. Its passing checks are then remembered: a call on inputs
    #: of the same shapes and dtypes, with equal values of these
    #: attributes, skips the check, which would pass again. A subclass
    #: that overrides ``check_type_forward`` declares again (or not).
    type_check_attributes = None

    @property
    def label(self):
        """A short name for graph drawings; the class name by default."""
        return type(self).__name__

    @property
    def local_function_hooks(self):
        """The dict ``name -> hook`` of hooks registered on this node."""
        if self._local_function_hooks is None:
            self._local_function_hooks = {}
        return self._local_function_hooks

    @property
    def output_data(self):
        """The retained output arrays, None where not retained."""
        if self._retained_output_data is None:
            raise RuntimeError(f'{self.label}: no output was retained')
        data = [None] * len(self.outputs)
        for i, array in zip(self._output_indexes_to_retain,
                            self._retained_output_data):
            data[i] = array
        return tuple(data)

    # -- applying -----------------------------------------------------

    def apply(self, inputs):
        """Compute the outputs of this function for ``inputs``.

        Args:
            inputs: a tuple of Variables or arrays.

        Returns:
            A tuple of Variables, graph-connected when any input requires
            a gradient and ``config.enable_backprop`` is on.
        """
        in_data = []
        requires_grad = False
        for x in inputs:
            if isinstance(x, Variable):
                array = x._array
                if array is None:
                    raise ValueError(
                        f'{self.label}: input {len(in_data)} is an '
                        f'uninitialized Parameter')
                in_data.append(array)
                if x._requires_grad:
                    requires_grad = True
            elif isinstance(x, _ndarray) or lazy_cupy.is_cupy_array(x) or \
                    x is None:
                # (None: an absent optional input, as in Chainer.)
                in_data.append(x)
            else:
                raise type_check.not_an_array(self.label, len(in_data), x)
        in_data = tuple(in_data)
        # config.<key> without the LocalConfig.__getattr__ call: this runs
        # for every function application.
        local_config = _config_local.__dict__
        recording = local_config.get(
            'enable_backprop', _global_config['enable_backprop'])
        if 'cupy' in _modules:
            _check_same_device(self, in_data)
        # (A check_type_forward set on the instance counts too.)
        if recording and (self._type_checked or
                          _check_on_instance(self)) and \
                local_config.get('type_check', _global_config['type_check']):
            _check_types_remembered(self, in_data)

        hooks = _hook_state.__dict__.get('hooks')
        try:
            if hooks or self._local_function_hooks:
                hooks = self._all_hooks(hooks or {})
                for hook in hooks:
                    hook.forward_preprocess(self, in_data)
                outputs = self.forward(in_data)
                for hook in hooks:
                    hook.forward_postprocess(self, in_data)
            else:
                outputs = self.forward(in_data)
        except Exception:
            # Without a graph no type check ran: a bad input may have met
            # the array library's own error. Checking now, on the failing
            # path only, gives the function's clear one instead, if any.
            if not recording and (self._type_checked or
                                  _check_on_instance(self)) \
                    and local_config.get('type_check',
                                         _global_config['type_check']):
                _check_types(self.check_type_forward, in_data, self)
            raise

        if type(outputs) is not tuple:
            raise TypeError(f'{self.label}: forward output must be a tuple '
                            f'of ndarrays, got {type(outputs).__name__}')
        for y in outputs:
            if not isinstance(y, _ndarray) and not lazy_cupy.is_cupy_array(y):
                outputs = _as_arrays(self, outputs)
                break
        if local_config.get('debug', _global_config['debug']):
            self.stack = traceback.extract_stack()
            _check_finite(self, outputs, 'forward')

        if not (requires_grad and recording):
            if len(outputs) == 1:
                return _bare(outputs[0], False),
            return tuple([_bare(y, False) for y in outputs])

        in_nodes = []
        rank = 0
        for x in inputs:
            if isinstance(x, Variable):
                node = x._node
                if node is None:
                    node = x.node
            else:
                node = _input_node(x)
            in_nodes.append(node)
            if node._rank > rank:
                rank = node._rank
        self.rank = rank
        self.inputs = in_nodes = tuple(in_nodes)
        rank += 1
        if len(outputs) == 1:
            ret = _output(outputs[0], self, rank),
            self.outputs = _weakref(ret[0]._node),
        else:
            ret = tuple([_output(y, self, rank) for y in outputs])
            self.outputs = tuple([_weakref(var._node) for var in ret])

        indexes = self._input_indexes_to_retain
        if indexes is not None:
            for i in indexes:
                in_nodes[i].data = in_data[i]
        indexes = self._output_indexes_to_retain
        if indexes is not None:
            if len(indexes) == 1:
                i, = indexes
                self._retained_output_data = outputs[i],
            else:
                self._retained_output_data = tuple([outputs[i]
                                                    for i in indexes])
            for i in indexes:
                ret[i]._node.data = outputs[i]
        return ret

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if '_type_checked' not in cls.__dict__:  # (a class may decide)
            cls._type_checked = cls.check_type_forward is not \
                FunctionNode.check_type_forward
        # A declaration holds for the check of the class making it and for
        # those it inherits, not for one a subclass writes.
        attributes = cls.type_check_attributes
        if attributes is not None and issubclass(
                _defining(cls, 'type_check_attributes'),
                _defining(cls, 'check_type_forward')):
            cls._passed_type_checks = set()
            # (A staticmethod: read from a node, the function itself.)
            cls._remembered_check = staticmethod(cls.check_type_forward)
            cls._read_type_check_attributes = \
                operator.attrgetter(*attributes) if attributes else None
        else:
            cls._passed_type_checks = None
        cls._accumulates = cls.backward_accumulate is not \
            FunctionNode.backward_accumulate
        # An array-level backward counts where no class below the one
        # defining it overrides backward (it would give other gradients).
        defining = _defining(cls, 'array_backward')
        cls._has_array_backward = defining is not FunctionNode and \
            issubclass(defining, _defining(cls, 'backward'))

    def _all_hooks(self, global_hooks):
        hooks = list(global_hooks.values())
        if self._local_function_hooks:
            hooks.extend(self._local_function_hooks.values())
        return hooks

    def check_type_forward(self, in_types):
        """Check the input types with :mod:`type_check` expressions."""

    def elementwise_expression(self):
        """The forward as one expression over the elements of the inputs
        (``x0``, ``x1``, ...), or None (the default) where it is not one.

        A replayed static graph fuses runs of such nodes into one loop
        (see :mod:`kusari.autograd.graph_optimizations.fusion`, which
        defines the expression language). The expression must do the
        float operations ``forward`` does, in its order, and may read the
        attributes ``__init__`` sets; it is asked of float32 and float64
        nodes with one output whose inputs have its dtype.
        """
        return None

    def retain_inputs(self, indexes):
        """Keep the inputs at ``indexes`` for backward (call in forward)."""
        self._input_indexes_to_retain = indexes

    def retain_outputs(self, indexes):
        """Keep the outputs at ``indexes`` for backward (call in forward)."""
        self._output_indexes_to_retain = indexes

    # -- backward -----------------------------------------------------

    def backward(self, target_input_indexes, grad_outputs):
        """Gradients w.r.t. the inputs, as Variables.

        Args:
            target_input_indexes: sorted indexes of the inputs that need a
                gradient; others may be returned as None.
            grad_outputs: one Variable (or None) per output.

        Returns:
            A tuple with one gradient per input, or one per target index.
        """
        return (None,) * len(target_input_indexes)

    def backward_accumulate(self, target_input_indexes, grad_outputs,
                            grad_inputs):
        """Gradients w.r.t. the targets, added to ``grad_inputs``.

        Override to fuse the accumulation into the computation; by default
        it calls :meth:`backward` and adds.
        """
        gxs = self.backward(target_input_indexes, grad_outputs)
        if len(gxs) != len(target_input_indexes):
            gxs = _targets_only(self, gxs, target_input_indexes)
        return tuple([
            gx if g_in is None else (g_in if gx is None
                                     else sum_gradients(gx, g_in))
            for gx, g_in in zip(gxs, grad_inputs)])

    def array_backward(self, target_input_indexes, grad_outputs, inputs,
                       outputs):
        """Gradients w.r.t. the inputs as arrays, from arrays: what
        :meth:`backward` computes, without Variables or a graph.

        Optional: where a node defines it, a backward pass that records no
        graph (no ``enable_double_backprop``, no function hooks, not in
        debug mode) and a static_graph replay call it in place of
        :meth:`backward`: no Variable is made, no node applied. It
        must give exactly the arrays ``backward`` gives, must not write
        into its arguments, and may return them (a gradient passed on).
        A node may also define ``array_backward_add(target_input_indexes,
        grad_outputs, inputs, outputs, into)``, ``into`` holding per
        target an array it may add that gradient into in place (or None),
        returning the gradients left to add (None for those added): a
        weight's gradient summed over a sequence in one array, as
        :meth:`backward_accumulate` does.

        Args:
            target_input_indexes: sorted indexes of the inputs that need a
                gradient; others may be returned as None.
            grad_outputs: one array (or None) per output.
            inputs: the input arrays the forward retained, None for others.
            outputs: the output arrays the forward retained, None for others.

        Returns:
            A tuple with one array (or None) per input, or per target index.
        """
        raise NotImplementedError(
            f'{self.label} has no array-level backward')

    def get_retained_inputs(self):
        """The retained inputs as Variables, in :meth:`retain_inputs`
        order; the original Variables where they are still alive."""
        if self._input_indexes_to_retain is None or self.inputs is None:
            return ()
        inputs = self.inputs
        return tuple([None if inputs[i].shape is None
                      else inputs[i].get_variable()
                      for i in self._input_indexes_to_retain])

    def get_retained_outputs(self):
        """The retained outputs as Variables, in :meth:`retain_outputs`
        order; re-made and re-linked where the caller dropped them."""
        indexes = self._output_indexes_to_retain
        if indexes is None or self.outputs is None:
            return ()
        ret = []
        outputs = list(self.outputs)
        for i, data in zip(indexes, self._retained_output_data):
            if data is None:  # an output the function did not compute
                ret.append(None)
                continue
            node = outputs[i]()
            if node is None:
                var = _bare(data, True)
                node = var._node = VariableNode(var)
                node.creator_node = self
                node._rank = self.rank + 1
                node.data = data
                outputs[i] = weakref.ref(node)
            ret.append(node.get_variable())
        self.outputs = tuple(outputs)
        return tuple(ret)

    def unchain(self):
        """Cut this node off the graph (inputs and outputs forgotten)."""
        if self.outputs is not None:
            for ref in self.outputs:
                node = ref()
                if node is not None:
                    node.unchain()
        self.inputs = None

    # -- hooks --------------------------------------------------------

    def add_hook(self, hook, name=None):
        """Register a FunctionHook on this node only."""
        if not isinstance(hook, function_hook.FunctionHook):
            raise TypeError(f'{self.label}.add_hook: expected a FunctionHook, '
                            f'got {type(hook).__name__}')
        name = hook.name if name is None else name
        if name in self.local_function_hooks:
            raise KeyError(f'{self.label}: a hook named {name!r} already '
                           f'exists')
        self.local_function_hooks[name] = hook
        hook.added(self)

    def delete_hook(self, name):
        """Unregister the local hook called ``name``."""
        if name not in self.local_function_hooks:
            raise KeyError(f'{self.label}: no hook named {name!r}')
        self.local_function_hooks.pop(name).deleted(self)


def _defining(cls, name):
    """The class of ``cls``'s MRO whose body defines ``name``."""
    return next(klass for klass in cls.__mro__ if name in klass.__dict__)


def _check_on_instance(func):
    """Whether a ``check_type_forward`` of its own was set on the node.

    Told by the attribute read (a method of the class is bound to the
    node): reading the node's ``__dict__`` would make CPython build one
    for every node applied.
    """
    check = func.check_type_forward
    of_class = type(func).check_type_forward
    if type(check) is _MethodType:
        return check.__func__ is not of_class
    return check is not of_class  # (the class's may be no function)


# How many passing type checks a class remembers at most (shapes that vary
# from call to call, as sequence lengths do, must not fill the memory).
_PASSED_TYPE_CHECKS_KEPT = 1024


def _check_types_remembered(func, in_data):
    """``func``'s type check on ``in_data``, skipped where its class
    declares what the check reads (``type_check_attributes``) and one with
    the same input shapes and dtypes and attribute values passed before."""
    check = func.check_type_forward
    passed = func._passed_type_checks
    key = None
    # Only the class's own check is remembered: not one set on the
    # instance, nor one patched onto the class later (see
    # _check_on_instance for why the bound method is asked).
    if passed is not None and type(check) is _MethodType and \
            check.__func__ is func._remembered_check:
        read = func._read_type_check_attributes
        try:
            if len(in_data) == 1 and read is None:
                x, = in_data
                key = x.shape, x.dtype
            else:
                key = () if read is None else (read(func),)
                for x in in_data:
                    key += (x.shape, x.dtype)
            if key in passed:
                return
        except (AttributeError, TypeError):
            # An absent optional input (None), or an attribute value that
            # is no key: checked every time.
            key = None
    _check_types(check, in_data, func)
    if key is None:
        return
    if len(passed) >= _PASSED_TYPE_CHECKS_KEPT:
        passed.clear()
    passed.add(key)


def _as_arrays(func, outputs):
    """NumPy gives scalars for 0-d results; make them 0-d arrays again."""
    ret = []
    for y in outputs:
        if isinstance(y, numpy.generic):
            y = numpy.asarray(y)
        elif not isinstance(y, _ndarray) and not lazy_cupy.is_cupy_array(y) \
                and y is not None:
            raise TypeError(f'{func.label}: forward output must be a tuple '
                            f'of ndarrays (or None), got a '
                            f'{type(y).__name__}')
        ret.append(y)
    return tuple(ret)


def _input_node(array):
    """A node for a raw-array input: a leaf that needs no gradient."""
    var = _bare(array, False)
    node = var._node = VariableNode(var)
    # The throwaway Variable dies at once; keep the array for backward.
    node.data = array
    return node


def _check_same_device(func, in_data):
    devices = {backend.get_device_from_array(x) for x in in_data
               if x is not None}
    if len(devices) > 1:
        raise ValueError(
            f'{func.label}: inputs are on different devices '
            f'({", ".join(sorted(str(d) for d in devices))}); send them to '
            f'one device first (to_device)')


def grad(outputs, inputs, grad_outputs=None, grad_inputs=None,
         set_grad=False, retain_grad=False, enable_double_backprop=False,
         loss_scale=None):
    """Gradients of ``outputs`` w.r.t. ``inputs``, without touching the
    ``grad`` of any Variable (unless ``set_grad``).

    Args:
        outputs: Variables to differentiate.
        inputs: Variables to differentiate with respect to.
        grad_outputs: initial gradients of the outputs; None (for all,
            or for one output) means ones of the output's shape.
        grad_inputs: gradients to add to the results, one per input.
        set_grad: also store the results in the inputs' ``grad_var``.
        retain_grad: keep gradients of intermediate Variables.
        enable_double_backprop: record the graph of the gradients.
        loss_scale: scale the initial gradients by this factor.

    Returns:
        A list of Variables (None where an input is unreachable).
    """
    return _state.grad(outputs, inputs, grad_outputs, grad_inputs, set_grad,
                       retain_grad, enable_double_backprop, loss_scale)


class GradientSum(FunctionNode):
    """The sum of gradients of one shape and dtype, the node the engine
    applies where gradients meet: the contributions to an input used twice
    (while the backward pass records a graph), a leaf's gradient and a new
    one. With one term it is a copy. Its gradient passes on to every
    term."""

    def forward(self, inputs):
        total = inputs[0].copy()
        for x in inputs[1:]:
            total += x
        return total,

    def backward(self, target_input_indexes, grad_outputs):
        return grad_outputs * len(target_input_indexes)


def sum_gradients(*grads):
    """The sum of the gradient Variables ``grads`` (one shape and dtype), a
    new Variable, through :class:`GradientSum` (so differentiable where a
    graph is recorded). One gradient gives a copy."""
    total, = GradientSum().apply(grads)
    return total
