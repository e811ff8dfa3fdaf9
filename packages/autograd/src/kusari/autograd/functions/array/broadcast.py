"""Broadcasting, and its adjoint: summing down to a shape."""
import numpy

from kusari.autograd import function_node
from kusari.autograd.utils import type_check
from kusari.autograd.variable import as_variable


def sum_to_shape(array, shape):
    """Sum ``array`` over the axes broadcasting added or stretched, so the
    result has ``shape``; the adjoint of broadcasting (on arrays)."""
    if array.shape == shape:
        return array
    lead = array.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, s in enumerate(shape)
        if s == 1 and array.shape[lead + i] != 1)
    summed = array.sum(axis=axes, keepdims=True)
    return summed.reshape(shape) if lead else summed


class BroadcastTo(function_node.FunctionNode):
    """Broadcast an array to a shape (a read-only view)."""

    def __init__(self, shape):
        self._shape = tuple(shape)

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.ndim <= len(self._shape))
        _check_broadcastable(type_check.eval(x_type.shape), self._shape)

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        xp = numpy if isinstance(x, numpy.ndarray) else _xp(x)
        return xp.broadcast_to(x, self._shape),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return sum_to(gy, self._in_shape),


class SumTo(function_node.FunctionNode):
    """Sum an array down to a shape it broadcasts to."""

    def __init__(self, shape):
        self._shape = tuple(shape)

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(type_check.is_in(x_type.dtype.kind, 'biufc'),
                          x_type.ndim >= len(self._shape))
        _check_broadcastable(self._shape, type_check.eval(x_type.shape))

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        return sum_to_shape(x, self._shape),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return broadcast_to(gy, self._in_shape),


def _xp(x):
    from kusari.array import backend
    return backend.get_array_module(x)


def _check_broadcastable(shape, target):
    """Raise InvalidType unless ``shape`` broadcasts to ``target``."""
    lead = len(target) - len(shape)
    ok = lead >= 0 and all(s == 1 or s == t for s, t in
                           zip(shape, target[lead:]))
    if not ok:
        raise type_check.InvalidType(
            f'a shape that broadcasts to {target}', f'{shape}')


@type_check.checks_inputs
def broadcast_to(x, shape):
    """Broadcast ``x`` to ``shape`` as NumPy broadcasting does.

    Args:
        x: Variable or array.
        shape: the target shape.

    Returns:
        Variable of ``shape``; its gradient sums back to ``x``'s shape.
    """
    shape = tuple(shape)
    if x.shape == shape:
        return as_variable(x)
    y, = BroadcastTo(shape).apply((x,))
    return y


@type_check.checks_inputs
def sum_to(x, shape):
    """Sum the elements of ``x`` down to ``shape`` (the adjoint of
    :func:`broadcast_to`).

    Args:
        x: Variable or array.
        shape: a shape that broadcasts to ``x.shape``.

    Returns:
        Variable of ``shape``.
    """
    shape = tuple(shape)
    if x.shape == shape:
        return as_variable(x)
    y, = SumTo(shape).apply((x,))
    return y


class Broadcast(function_node.FunctionNode):
    """Broadcast several arrays against each other."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check.expect_broadcast_shapes(*[t.shape for t in in_types])

    def forward(self, inputs):
        self._in_shapes = [x.shape for x in inputs]
        xp = _xp(inputs[0])
        return tuple(xp.broadcast_arrays(*inputs))

    def backward(self, indexes, grad_outputs):
        return tuple([
            None if gy is None else sum_to(gy, self._in_shapes[i])
            for i, gy in enumerate(grad_outputs) if i in indexes])


def broadcast(*args):
    """Broadcast the given Variables or arrays against each other.

    Returns:
        One Variable if one argument is given, else a tuple of Variables
        of the common shape.
    """
    if len(args) == 0:
        raise type_check.InvalidType(
            'in_types.size() > 0', 'in_types.size() = 0',
            'broadcast: at least one argument is required')
    ys = Broadcast().apply(args)
    return ys[0] if len(args) == 1 else ys
