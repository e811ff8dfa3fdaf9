"""The check that a function gives, replayed in a static chain
(``static_graph``), what it gives define-by-run: for the functions that
compute something from their inputs' values (indexes, masks, draws),
which a replay must compute anew."""
import numpy

from kusari.autograd import Variable
from kusari.autograd import testing
from kusari.autograd.graph_optimizations.static_graph import (
    StaticScheduleFunction, static_graph)


class _StaticCall:
    """A chain whose static call is one call of ``func``."""

    def __init__(self, func):
        self.func = func

    def params(self):
        return []

    @static_graph
    def __call__(self, *inputs):
        return self.func(*inputs)


def check_replays(func, calls, before_call=None):
    """Call a static chain of ``func``, and ``func`` itself, on each of
    ``calls`` (tuples of arrays; the float ones take gradients): the first
    two calls record the chain, the others replay it. Each call's output
    and input gradients (for a random output gradient; none for an output
    that records no graph, as a metric's) must be define-by-run's.
    ``before_call(i)`` runs before both calls on the ``i``-th arrays (to
    seed a sampler alike)."""
    chain = _StaticCall(func)
    for i, arrays in enumerate(calls):
        results = []
        for call in (chain, func):
            if before_call is not None:
                before_call(i)
            xs = [Variable(a.copy(), requires_grad=a.dtype.kind == 'f')
                  for a in arrays]
            y = call(*xs)
            if y.requires_grad:
                y.grad = numpy.asarray(numpy.random.RandomState(i).uniform(
                    -1, 1, y.shape)).astype(y.dtype)
                y.backward()
            results.append([y] + [x.grad for x in xs])
        (replayed, *static_grads), (expected, *grads) = results
        if i >= 2 and expected.requires_grad:
            assert isinstance(replayed.creator, StaticScheduleFunction)
        testing.assert_allclose(replayed.array, expected.array)
        for a, b in zip(static_grads, grads):
            assert (a is None) == (b is None)
            if a is not None:
                testing.assert_allclose(a, b)
