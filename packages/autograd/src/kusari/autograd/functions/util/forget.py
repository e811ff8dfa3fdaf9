"""Calling a function without keeping its intermediate results."""
from kusari.array.configuration import config
from kusari.array.configuration import using_config
from kusari.autograd import function_node
from kusari.autograd.graph_mode import force_backprop_mode
from kusari.autograd.graph_mode import no_backprop_mode
from kusari.autograd.variable import Variable


def _call(func, inputs):
    """``func(*inputs)`` as a tuple of Variables, and whether ``func``
    returned a tuple."""
    outputs = func(*inputs)
    if isinstance(outputs, Variable):
        return (outputs,), False
    if isinstance(outputs, tuple) and all(
            isinstance(y, Variable) for y in outputs):
        return outputs, True
    raise RuntimeError(f'forget: func must return a Variable or a tuple of '
                       f'Variables; it returned {type(outputs).__name__}')


class Forget(function_node.FunctionNode):
    """Runs ``func`` without recording its graph; backward runs it again,
    with the graph and ``config.in_recomputing`` on, and backpropagates
    through that."""

    def __init__(self, func):
        self.func = func
        self.returns_tuple = False

    @property
    def label(self):
        return 'forget'

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        with no_backprop_mode():
            outputs, self.returns_tuple = _call(
                self.func, [Variable(x) for x in inputs])
        return tuple([y.array for y in outputs])

    def backward(self, indexes, grad_outputs):
        if config.enable_backprop:
            raise RuntimeError('forget: double backpropagation is not '
                               'supported (func would be recorded twice)')
        inputs = [Variable(x.array) for x in self.get_retained_inputs()]
        with force_backprop_mode(), using_config('in_recomputing', True):
            outputs, _ = _call(self.func, inputs)
        pairs = [(y, gy) for y, gy in zip(outputs, grad_outputs)
                 if gy is not None]
        grads = function_node.grad([y for y, _ in pairs], inputs,
                                   [gy for _, gy in pairs])
        return tuple([grads[i] for i in indexes])


def forget(func, *xs):
    """Call ``func(*xs)`` without keeping its intermediate results; the
    backward pass calls it again to rebuild them.

    This trades computation for memory. ``func`` must compute the same
    thing each call (no dropout); during the second call
    ``config.in_recomputing`` is True, so links can skip updating their
    state twice. Double backpropagation is not supported.

    Args:
        func: callable taking Variables and returning a Variable or a
            tuple of Variables.
        xs: Variables or arrays (arrays become Variables, so that the
            result stays on the graph).

    Returns:
        What ``func`` returns: a Variable, or a tuple of them.
    """
    xs = tuple([x if isinstance(x, Variable) else Variable(x) for x in xs])
    node = Forget(func)
    ys = node.apply(xs)
    return ys if node.returns_tuple else ys[0]
