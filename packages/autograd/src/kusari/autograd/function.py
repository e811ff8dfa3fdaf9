"""Old-style functions: forward and backward both on arrays.

A :class:`Function` is what Chainer code before v3 subclasses. It keeps all
its inputs for backward unless told otherwise, and its backward receives
and returns arrays. A :class:`FunctionAdapter`, a FunctionNode, puts it in
the graph. Since its backward computes on arrays, its gradients cannot be
differentiated again: a double backprop through one fails with an error
naming it.
"""
import warnings
import weakref

import numpy

from kusari.array import lazy_cupy
from kusari.array import backend
from kusari.array.configuration import config
from kusari.autograd import function_node
from kusari.autograd.variable import as_variable


def _call_old_backward(function, in_data, grad_out_data):
    """``function.backward`` on arrays, its result checked: one array or
    None per input."""
    gxs = function.backward(in_data, grad_out_data)
    if not isinstance(gxs, (tuple, list)):
        raise TypeError(
            f'{function.label}.backward must return a tuple with one '
            f'gradient array (or None) per input, got '
            f'{type(gxs).__name__}')
    if len(gxs) != len(in_data):
        raise ValueError(
            f'{function.label}.backward returned {len(gxs)} gradients for '
            f'{len(in_data)} inputs')
    for i, gx in enumerate(gxs):
        if gx is not None and not isinstance(gx, numpy.ndarray) \
                and not lazy_cupy.is_cupy_array(gx):
            raise TypeError(
                f'{function.label}.backward: the gradient of input {i} '
                f'must be an array or None, got {type(gx).__name__}')
    return tuple(gxs)


class _OldStyleGrad(function_node.FunctionNode):
    """The gradients of an old-style Function, as a node of the graph
    recorded by ``enable_double_backprop``: backprop through it raises,
    instead of silently treating the gradients as constants.

    Its inputs are the retained inputs of the Function (positions
    ``in_indexes``) followed by the output gradients that are not None
    (positions ``gy_indexes``).
    """

    def __init__(self, function, n_in, in_indexes, n_out, gy_indexes,
                 targets):
        self._function = function
        self._n_in = n_in
        self._in_indexes = in_indexes
        self._n_out = n_out
        self._gy_indexes = gy_indexes
        self._targets = targets
        self.computed = None  # the targets whose gradient is not None

    @property
    def label(self):
        return f'{self._function.label} (old-style backward)'

    def forward(self, inputs):
        in_data = [None] * self._n_in
        for i, array in zip(self._in_indexes, inputs):
            in_data[i] = array
        grad_out_data = [None] * self._n_out
        for i, array in zip(self._gy_indexes,
                            inputs[len(self._in_indexes):]):
            grad_out_data[i] = array
        gxs = _call_old_backward(self._function, tuple(in_data),
                                 tuple(grad_out_data))
        self.computed = [i for i in self._targets if gxs[i] is not None]
        return tuple([gxs[i] for i in self.computed])

    def backward(self, target_input_indexes, grad_outputs):
        raise RuntimeError(
            f'cannot differentiate twice through the old-style Function '
            f'{self._function.label}: its backward computes on arrays. '
            f'Write it as a FunctionNode to use it with '
            f'enable_double_backprop.')


class FunctionAdapter(function_node.FunctionNode):
    """The FunctionNode putting an old-style :class:`Function` in the graph.

    Args:
        function: the :class:`Function` it adapts (it owns it).
    """

    def __init__(self, function):
        self._function = function

    @property
    def _type_checked(self):
        # The core type-checks only where a check is defined (on the class
        # or on the instance).
        function = self._function
        return type(function).check_type_forward is not \
            Function.check_type_forward or \
            'check_type_forward' in function.__dict__

    @property
    def function(self):
        """The adapted :class:`Function`."""
        return self._function

    @property
    def label(self):
        return self._function.label

    def check_type_forward(self, in_types):
        self._function.check_type_forward(in_types)

    def forward(self, inputs):
        # Old-style backward receives the inputs: keep them all unless
        # the Function's forward says otherwise.
        self.retain_inputs(tuple(range(len(inputs))))
        return self._function.forward(inputs)

    def backward(self, target_input_indexes, grad_outputs):
        in_indexes = tuple(self._input_indexes_to_retain)
        retained = self.get_retained_inputs()
        n_in = len(self.inputs)
        targets = tuple(target_input_indexes)
        if not config.enable_backprop:
            in_data = [None] * n_in
            for i, x in zip(in_indexes, retained):
                in_data[i] = None if x is None else x.array
            grad_out_data = tuple([None if gy is None else gy.array
                                   for gy in grad_outputs])
            gxs = _call_old_backward(self._function, tuple(in_data),
                                     grad_out_data)
            return tuple([None if gxs[i] is None else as_variable(gxs[i])
                          for i in targets])
        # Recording the backward (enable_double_backprop): the gradients
        # come from a node, so that a further backprop reaches it.
        gy_indexes = tuple([i for i, gy in enumerate(grad_outputs)
                            if gy is not None])
        grad_node = _OldStyleGrad(self._function, n_in, in_indexes,
                                  len(grad_outputs), gy_indexes, targets)
        outputs = grad_node.apply(
            tuple(retained) + tuple([grad_outputs[i] for i in gy_indexes]))
        gxs = dict(zip(grad_node.computed, outputs))
        return tuple([gxs.get(i) for i in targets])


class Function(function_node.ForwardByDevice):
    """Base of old-style differentiable functions.

    A subclass implements :meth:`forward` (or :meth:`forward_cpu` and
    :meth:`forward_gpu`) and :meth:`backward` (or :meth:`backward_cpu` and
    :meth:`backward_gpu`), all on tuples of arrays, and may implement
    :meth:`check_type_forward`. Calling an instance on Variables or arrays
    applies it and records it in the graph (through its
    :class:`FunctionAdapter`, :attr:`node`). An instance is applied once:
    make a new one per call.

    Unlike a FunctionNode, it keeps all its inputs for backward unless its
    forward calls :meth:`retain_inputs`, and its gradients are not
    differentiable again.
    """

    # Before the call the Function owns its adapter; after it, the graph
    # owns the adapter and the adapter the Function, which keeps only a
    # weak reference back: no reference cycle keeps a graph alive.
    _owned_node = None
    _node_ref = None

    def __call__(self, *inputs):
        """Apply the function to Variables or arrays.

        Returns:
            A Variable if there is one output, else a tuple of them.
        """
        node = self.node
        self._node_ref = weakref.ref(node)
        self._owned_node = None
        outputs = node.apply(inputs)
        return outputs[0] if len(outputs) == 1 else outputs

    @property
    def node(self):
        """The :class:`FunctionAdapter` of this function."""
        node = None if self._node_ref is None else self._node_ref()
        if node is None:
            node = self._owned_node
        if node is None:
            node = self._owned_node = FunctionAdapter(self)
        return node

    @property
    def label(self):
        """A short name for graph drawings and messages; the class name by
        default."""
        return type(self).__name__

    @property
    def inputs(self):
        """The input VariableNodes (None before the function is applied)."""
        return self.node.inputs

    @property
    def outputs(self):
        """Weak references to the output VariableNodes."""
        return self.node.outputs

    @property
    def rank(self):
        return self.node.rank

    @property
    def stack(self):
        """The stack trace of the application (recorded in debug mode)."""
        return self.node.stack

    @property
    def output_data(self):
        """The retained output arrays, None where not retained."""
        return self.node.output_data

    @property
    def local_function_hooks(self):
        """The dict ``name -> hook`` of hooks registered on this function.
        """
        return self.node.local_function_hooks

    def check_type_forward(self, in_types):
        """Check the input types with :mod:`type_check` expressions."""

    def backward(self, inputs, grad_outputs):
        """Input gradient arrays from the inputs and the output gradients.

        Args:
            inputs: the input arrays; None where not retained.
            grad_outputs: the output gradient arrays; None for an output
                whose gradient no consumer gave.

        Returns:
            A tuple with one gradient array (or None) per input.

        By default calls :meth:`backward_cpu` or :meth:`backward_gpu` by the
        array module of the arrays given.
        """
        arrays = [a for a in inputs + grad_outputs if a is not None]
        if backend.get_array_module(*arrays) is numpy:
            return self.backward_cpu(inputs, grad_outputs)
        return self.backward_gpu(inputs, grad_outputs)

    def backward_cpu(self, inputs, grad_outputs):
        """No gradient for any input, unless overridden."""
        return (None,) * len(inputs)

    def backward_gpu(self, inputs, grad_outputs):
        """No gradient for any input, unless overridden."""
        return (None,) * len(inputs)

    def retain_inputs(self, indexes):
        """Keep only the inputs at ``indexes`` for backward (call it in
        forward); the others reach backward as None."""
        self.node.retain_inputs(indexes)

    def retain_outputs(self, indexes, retain_after_backward=False):
        """Keep the outputs at ``indexes`` for backward, in
        :attr:`output_data` (call it in forward).

        ``retain_after_backward`` has no effect; it is accepted for old
        code.
        """
        if retain_after_backward:
            warnings.warn(f'{self.label}.retain_outputs: '
                          f'retain_after_backward has no effect',
                          DeprecationWarning, stacklevel=2)
        self.node.retain_outputs(indexes)

    def add_hook(self, hook, name=None):
        """Register a FunctionHook on this function only."""
        self.node.add_hook(hook, name)

    def delete_hook(self, name):
        """Unregister the local hook called ``name``."""
        self.node.delete_hook(name)

    def unchain(self):
        """Cut this function off the graph."""
        self.node.unchain()
