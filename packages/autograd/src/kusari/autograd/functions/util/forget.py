"""Calling a function without keeping its intermediate results."""
from kusari.array.configuration import config
from kusari.array.configuration import using_config
from kusari.autograd import _backprop
from kusari.autograd import function_node
from kusari.autograd.graph_mode import force_backprop_mode
from kusari.autograd.graph_mode import no_backprop_mode
from kusari.autograd.utils import type_check
from kusari.autograd.variable import Variable


def _ordinal(n):
    """'1st', '2nd', '3rd', '4th', ..., '11th', '21st', ..."""
    suffix = 'th' if 10 <= n % 100 < 20 else \
        {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')
    return f'{n}{suffix}'


def _call(func, inputs):
    """``func(*inputs)`` as a tuple of Variables."""
    outputs = func(*inputs)
    if isinstance(outputs, Variable):
        return (outputs,)
    if not isinstance(outputs, tuple):
        raise RuntimeError(
            f'forget: func must return a Variable or a tuple of Variables; '
            f'it returned {type(outputs).__name__}')
    for i, y in enumerate(outputs):
        if not isinstance(y, Variable):
            raise RuntimeError(
                f'forget: the {_ordinal(i + 1)} element of the tuple func '
                f'returned is not a Variable but {type(y).__name__}')
    return outputs


class Forget(function_node.FunctionNode):
    """Runs ``func`` without recording its graph; backward runs it again,
    with the graph and ``config.in_recomputing`` on, and backpropagates
    through that."""

    def __init__(self, func):
        self.func = func

    @property
    def label(self):
        return 'forget'

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        # config._will_recompute (Chainer's key) tells links whose output
        # depends on state they update to keep what this pass saw.
        with no_backprop_mode(), using_config('_will_recompute', True):
            outputs = _call(self.func, [Variable(x) for x in inputs])
        return tuple([y.array for y in outputs])

    def backward(self, indexes, grad_outputs):
        if config.enable_backprop:
            raise RuntimeError('forget: double backpropagation is not '
                               'supported (func would be recorded twice)')
        inputs = [Variable(x.array) for x in self.get_retained_inputs()]
        with force_backprop_mode(), using_config('in_recomputing', True):
            outputs = _call(self.func, inputs)
        pairs = [(y, gy) for y, gy in zip(outputs, grad_outputs)
                 if gy is not None]
        # A full backward pass, so that the parameters func uses (a link's)
        # get their gradients too, as in Chainer.
        _backprop.backward([y for y, _ in pairs], [gy for _, gy in pairs])
        return tuple([inputs[i].grad_var for i in indexes])


@type_check.checks_inputs
def forget(func, *xs):
    """Call ``func(*xs)`` without keeping its intermediate results; the
    backward pass calls it again to rebuild them.

    This trades computation for memory. ``func`` must compute the same
    thing each call (no dropout); during the second call
    ``config.in_recomputing`` is True, so links can skip updating their
    state twice. Gradients reach the parameters ``func`` uses as well.
    Double backpropagation is not supported.

    Args:
        func: callable taking Variables and returning a Variable or a
            tuple of Variables.
        xs: Variables or arrays (arrays become Variables, so that the
            result stays on the graph).

    Returns:
        A Variable if ``func`` returns one Variable (or a tuple of one, as
        in Chainer), else a tuple of Variables.
    """
    if not callable(func):
        raise TypeError(f'forget: func must be callable, got '
                        f'{type(func).__name__}')
    xs = tuple([x if isinstance(x, Variable) else Variable(x) for x in xs])
    ys = Forget(func).apply(xs)
    return ys[0] if len(ys) == 1 else ys
