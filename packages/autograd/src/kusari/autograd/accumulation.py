"""How gradients add up in a backward pass.

Where several contributions reach one VariableNode (an input used twice, a
weight used at every step of a sequence) the pass adds them. While it
records a graph (``enable_double_backprop``) the sum is a
:class:`~kusari.autograd.function_node.GradientSum` node; otherwise it adds
arrays, and a sum the pass made and alone holds takes later contributions
in place, with no new array each.

A ``FunctionNode.backward_accumulate`` that adds its own gradients into
``grad_inputs`` uses :func:`private`, :func:`hand_over` and
:func:`accumulate` to take part in that.
"""
from kusari.autograd import _state
from kusari.autograd.function_node import sum_gradients
from kusari.autograd.utils.array import force_array
from kusari.autograd.variable import Variable

_bare = Variable._bare
_pass = _state.backward_pass


def adder(owned):
    """How to add the contribution ``b`` to the gradient ``a`` of a node:
    ``add(a, b, node)``. Through the graph when it is recorded (``owned``
    None), on arrays when not; there, a sum made here is recorded in
    ``owned`` (``id -> node``) and later contributions to that node are
    added to it in place."""
    if owned is None:
        return lambda a, b, node: sum_gradients(a, b)

    def add(a, b, node):
        if owned.get(id(a)) is node:
            a._array += b._array
            return a
        # (A 0-d sum is a NumPy scalar: made an array again.)
        total = _bare(force_array(a._array + b._array), True)
        owned[id(total)] = node
        return total
    return add


def private(grad, node):
    """Whether the running backward pass alone holds ``grad``, the
    gradient it has so far for the VariableNode ``node``: a
    ``backward_accumulate`` may add into such an entry of its
    ``grad_inputs`` in place and return it in its place."""
    owned = getattr(_pass, 'owned', None)
    return owned is not None and owned.get(id(grad)) is node


def hand_over(grad, node):
    """Give the running backward pass ``grad``, the gradient of the
    VariableNode ``node`` that a ``backward_accumulate`` returns, whose
    array it made and holds no other reference to: later contributions
    may then be added to it in place. Nothing happens while the pass
    records a graph."""
    owned = getattr(_pass, 'owned', None)
    if owned is not None:
        owned[id(grad)] = node


def accumulate(grad, contribution, node):
    """``grad + contribution`` in a ``backward_accumulate``, where ``grad``
    is the running pass's gradient so far (or None) of the VariableNode
    ``node``: added in place where the pass alone holds ``grad``, as the
    pass adds contributions itself."""
    if grad is None:
        return contribution
    return adder(getattr(_pass, 'owned', None))(grad, contribution, node)
