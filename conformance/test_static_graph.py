"""Every record through a static chain (``static_graph``): once two
calls have recorded it, a replay on new inputs gives what a
define-by-run call gives, outputs and gradients (to the second order
where the function has them); a node with an elementwise expression runs
as a fused loop of its own there (where Numba is installed, on the CPU).
Every function computes what depends on its inputs' values inside its
nodes (none of it is a constant of the schedule): the second recording,
on inputs other than the first's, raises no DynamicGraphError."""
import numpy
import pytest
from hypothesis import given
from hypothesis import strategies as st

import records  # noqa: F401
from harness import checks
from harness.profiles import conformance_settings
from harness.record import RECORDS
from kusari.autograd import Variable
from kusari.autograd import backward
from kusari.autograd import grad
from kusari.autograd import testing
from kusari.autograd.graph_optimizations import fusion
from kusari.autograd.graph_optimizations.static_graph import (
    StaticScheduleFunction, static_graph)


class _Static:
    """A chain of one function, marked static."""

    def __init__(self, func, kwargs):
        self.func = func
        self.kwargs = kwargs

    def params(self):
        return []

    @static_graph
    def __call__(self, *inputs):
        return self.func(*inputs, **self.kwargs)


def _outputs_and_grads(call, arrays, seed, xp, order=1):
    """Outputs and input gradients of ``call`` with random output
    gradients; random functions draw from ``seed``. With ``order=2`` the
    gradients are taken with a graph, and the input gradients are those
    of their sum weighted by random arrays: the gradients' arrays, then
    the inputs' gradients."""
    numpy.random.seed(seed)
    xp.random.seed(seed)
    xs = [Variable(a.copy(), requires_grad=a.dtype.kind == 'f')
          for a in arrays]
    ys = call(*xs)
    ys = ys if isinstance(ys, tuple) else (ys,)
    rng = numpy.random.RandomState(seed)

    def weights(variables):
        return [xp.asarray(rng.uniform(-1, 1, v.shape).astype(v.dtype))
                for v in variables]

    ys_back = [y for y in ys if y.dtype.kind == 'f' and y.requires_grad]
    outputs = [y.array for y in ys]
    if order == 1:
        if ys_back:
            backward(ys_back, weights(ys_back))
        return outputs, [x.grad for x in xs], ys
    targets = [x for x in xs if x.requires_grad]
    gxs = grad(ys_back, targets, weights(ys_back),
               enable_double_backprop=True)
    gxs_back = [g for g in gxs if g is not None and g.requires_grad]
    if gxs_back:
        backward(gxs_back, weights(gxs_back))
    return outputs, [None if g is None else g.array for g in gxs] + [
        x.grad for x in targets], ys


def _moved(arrays, rng, xp):
    """The float arrays scaled by up to 5% elementwise (0-d ones stay
    arrays); the others (labels, indexes) with the rows of their first
    axis shuffled, as the next batch of a training loop would bring
    them."""
    return [xp.asarray(a * xp.asarray(
        1 + 0.05 * rng.uniform(-1, 1, a.shape)).astype(a.dtype))
        if a.dtype.kind == 'f' else
        a[xp.asarray(rng.permutation(len(a)))] if a.ndim else a
        for a in arrays]


def _float32_cases():
    return [pytest.param(record, id=record.name)
            for record in RECORDS.values()
            if numpy.dtype(numpy.float32) in
            [numpy.dtype(d) for d in record.dtypes]]


def _double_backprop_cases():
    return [case for case in _float32_cases()
            if case.values[0].double_backprop]


@pytest.mark.parametrize('record', _float32_cases())
@conformance_settings
@given(data=st.data())
def test_replay_equals_define_by_run(record, device, data):
    _check_replay(record, device, data, order=1)


@pytest.mark.parametrize('record', _double_backprop_cases())
@conformance_settings
@given(data=st.data())
def test_double_backprop_through_a_replay_equals_define_by_run(
        record, device, data):
    _check_replay(record, device, data, order=2)


def _check_replay(record, device, data, order):
    """Record ``record``'s function as a static chain twice, replay it on
    other inputs, and compare with define-by-run on those, gradients to
    ``order``."""
    fused_alone = fusion.MIN_STEPS
    fusion.MIN_STEPS = 0  # (hypothesis runs this many times: no fixture)
    try:
        _compare_replay(record, device, data, order)
    finally:
        fusion.MIN_STEPS = fused_alone


def _compare_replay(record, device, data, order):
    with device:
        case = checks.draw_case(data.draw, record, numpy.float32, device)
        xp = device.xp
        rng = numpy.random.RandomState(0)
        chain = _Static(record.func, case.kwargs)
        _outputs_and_grads(chain, case.inputs, 1, xp, order)
        _outputs_and_grads(chain, _moved(case.inputs, rng, xp), 2, xp, order)
        third = _moved(case.inputs, rng, xp)
        replayed = _outputs_and_grads(chain, third, 3, xp, order)
        expected = _outputs_and_grads(
            lambda *xs: record.func(*xs, **case.kwargs), third, 3, xp, order)
    if replayed[2]:
        assert isinstance(replayed[2][0].creator, StaticScheduleFunction)
    for a, b in zip(replayed[0] + replayed[1], expected[0] + expected[1]):
        assert (a is None) == (b is None)
        if a is not None:
            testing.assert_allclose(a, b, atol=1e-6, rtol=1e-5)
