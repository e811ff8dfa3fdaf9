"""Fused elementwise chains in replayed static graphs: a replay computes
what define-by-run computes, forward, backward and double backward, with
only the arrays read outside a chain written."""
import subprocess
import sys

import numpy
import pytest

from kusari.array import jit
from kusari.array import lazy_cupy
from kusari.array.configuration import using_config
from kusari.autograd import Parameter
from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd import grad
from kusari.autograd import testing
from kusari.autograd.graph_optimizations import fusion
from kusari.autograd.graph_optimizations.static_graph import static_graph


class Block:
    """A linear layer and an activation of many elementwise nodes."""

    def __init__(self):
        rng = numpy.random.RandomState(0)
        self.W = Parameter(rng.uniform(-1, 1, (6, 4)).astype(numpy.float32))
        self.b = Parameter(rng.uniform(-1, 1, 6).astype(numpy.float32))

    def params(self):
        return [self.W, self.b]

    def forward(self, x):
        h = F.linear(x, self.W) + self.b
        h = h * F.sigmoid(h)
        h = F.leaky_relu(F.tanh(h) * 0.5 - 1.0, 0.2) / 3.0
        return F.exp(h) + F.relu(h) * h - F.sqrt(h * h + 1)


class StaticBlock(Block):

    @static_graph
    def __call__(self, x):
        return self.forward(x)


def _fused(chain):
    return [step for step in chain.static_schedule._run_steps
            if isinstance(step, fusion.FusedStep)]


def _train_side_by_side(xp=numpy):
    """Three calls each (two recordings, a replay) of a static and a
    define-by-run block, each with the gradient of a gradient penalty;
    the static block, once it replays."""
    static, dynamic = StaticBlock(), Block()
    for model in (static, dynamic):
        for p in model.params():
            p.array = xp.asarray(p.array)
    rng = numpy.random.RandomState(1)
    for _ in range(3):
        x = xp.asarray(rng.uniform(-2, 2, (5, 4)).astype(numpy.float32))
        results = []
        for model in (static, dynamic):
            xv = Variable(x)
            y = model(xv) if model is static else model.forward(xv)
            gx, = grad([F.sum(y * y)], [xv], enable_double_backprop=True)
            for p in model.params():
                p.cleargrad()
            (F.sum(y) + F.sum(gx * gx)).backward()
            results.append([y.array, gx.array, xv.grad] +
                           [p.grad for p in model.params()])
        for a, b in zip(*results):
            testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    return static


def test_fused_replay_equals_define_by_run():
    pytest.importorskip('numba')
    static = _train_side_by_side()
    fused = _fused(static)
    # On the CPU the nodes calling exp, tanh (sigmoid's too) stay steps.
    assert [len(step.steps) for step in fused] == [4, 7]
    assert static.static_schedule.generation == 1  # (the third: replayed)


@pytest.mark.gpu
def test_fused_replay_on_the_gpu_equals_define_by_run():
    static = _train_side_by_side(lazy_cupy.require_cupy())
    # On the GPU every elementwise node after the linear layer is fused.
    assert [len(step.steps) for step in _fused(static)] == [16]


def test_only_arrays_read_outside_a_chain_are_written():
    pytest.importorskip('numba')
    static = StaticBlock()
    x = numpy.ones((5, 4), numpy.float32)
    with using_config('enable_backprop', False):
        for _ in range(3):
            y = static(x)
    schedule = static.static_schedule
    first, second = _fused(static)
    # (No backward: each chain writes what the next step reads.)
    assert len(first.out_slots) == 1
    assert second.out_slots == schedule.output_slots
    numpy.testing.assert_allclose(y.array, Block().forward(x).array,
                                  rtol=1e-6)


def test_nan_and_broadcasting_as_numpy():
    pytest.importorskip('numba')

    class Chain:
        def params(self):
            return []

        @static_graph
        def __call__(self, x, b):
            return F.relu(x * b - b) / (x + 2.0)

    chain = Chain()
    x = numpy.array([[numpy.nan, -1.0, 2.0], [0.0, numpy.inf, -3.0]])
    b = numpy.array([1.0, numpy.nan, 0.5])
    for _ in range(3):
        y = chain(Variable(x), b)
    assert [len(step.steps) for step in _fused(chain)] == [5]
    expected = numpy.maximum(x * b - b, 0) / (x + 2.0)
    numpy.testing.assert_array_equal(y.array, expected)


def test_without_numba_the_steps_run_as_recorded(monkeypatch):
    monkeypatch.setattr(jit, 'numba_module', lambda: None)
    static = StaticBlock()
    x = numpy.ones((5, 4), numpy.float32)
    for _ in range(3):
        y = static(x)
    assert not _fused(static)
    numpy.testing.assert_allclose(y.array, Block().forward(x).array,
                                  rtol=1e-6)


def test_expression_language_is_checked():
    writer = fusion._Writer(cuda=False)
    assert writer.write('maximum(x0, 0) if x0 > x1 else -x1 / 2.5',
                        ['a', 'b']) == \
        '(numpy.maximum(a, k0) if (a > b) else ((-b) / k1))'
    assert writer.numbers == [0, 2.5]
    cuda = fusion._Writer(cuda=True)
    assert cuda.write('x0 if x0 > 0 else arctan(x0)', ['a']) == \
        '((a > k0) ? a : atan(a))'
    for bad in ('x0 ** 2', 'erf(x0)', 'x2', 'maximum(x0)', 'x0 < x1 < 1'):
        with pytest.raises(ValueError, match='expression language'):
            writer.write(bad, ['a', 'b'])


def test_numba_is_not_imported_with_the_package():
    # Importing Numba takes about 0.4 s: the first fused replay pays it.
    code = ('import sys, kusari.autograd, kusari.autograd.functions; '
            'assert "numba" not in sys.modules')
    subprocess.run([sys.executable, '-c', code], check=True)
