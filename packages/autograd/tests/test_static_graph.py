"""Static subgraph optimization: a replayed schedule computes what
define-by-run computes, forward and backward, and refuses what it cannot."""
import copy
import pickle
import weakref

import numpy
import pytest

from kusari.array import lazy_cupy
from kusari.autograd import testing
from kusari.array.configuration import using_config
from kusari.autograd import Function
from kusari.autograd import FunctionNode
from kusari.autograd import Parameter
from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd import grad
from kusari.autograd import gradient_check
from kusari.autograd.graph_optimizations.static_graph import (
    DynamicGraphError, StaticScheduleFunction, replayed_parameters,
    static_code, static_graph)


class _Model:
    """The part of a Chain the decorator uses: ``params()``."""

    def __init__(self, seed, **shapes):
        rng = numpy.random.RandomState(seed)
        self._names = sorted(shapes)
        for name in self._names:
            setattr(self, name, Parameter(
                rng.uniform(-1, 1, shapes[name]).astype(numpy.float32)))

    def params(self):
        return [getattr(self, name) for name in self._names]

    def cleargrads(self):
        for p in self.params():
            p.cleargrad()


class MLP(_Model):

    def __init__(self, seed=0):
        super().__init__(seed, W1=(8, 5), b1=(8,), W2=(3, 8), b2=(3,))

    def forward(self, x):
        h = F.relu(F.linear(x, self.W1, self.b1))
        return F.linear(h, self.W2, self.b2)


class StaticMLP(MLP):

    @static_graph
    def __call__(self, x):
        return self.forward(x)


class ConvNet(_Model):
    """Convolution, batch normalization (running statistics updated in
    training), pooling, dropout and a linear classifier."""

    def __init__(self, seed=0):
        super().__init__(seed, W=(4, 2, 3, 3), b=(4,), gamma=(4,),
                         beta=(4,), V=(3, 16))
        self.avg_mean = numpy.zeros(4, numpy.float32)
        self.avg_var = numpy.ones(4, numpy.float32)
        self.ratio = 0.25

    def forward(self, x):
        h = F.convolution_2d(x, self.W, self.b, pad=1)
        h = F.batch_normalization(h, self.gamma, self.beta,
                                  running_mean=self.avg_mean,
                                  running_var=self.avg_var)
        h = F.max_pooling_2d(F.relu(h), 2)
        h = F.dropout(h, self.ratio)
        return F.linear(F.reshape(h, (h.shape[0], -1)), self.V)


class StaticConvNet(ConvNet):

    @static_graph(verbosity_level=0)
    def __call__(self, x):
        return self.forward(x)


def _train_side_by_side(static, dynamic, x_shape, steps=4, xp=numpy):
    """SGD steps on both models with the same data; dropout draws the same
    masks because the random state is reset before each model's call."""
    rng = numpy.random.RandomState(1)
    for step in range(steps):
        x = xp.asarray(rng.uniform(-1, 1, x_shape).astype(numpy.float32))
        t = xp.asarray(rng.randint(0, 3, x_shape[0]).astype(numpy.int32))
        results = []
        for model in (static, dynamic):
            numpy.random.seed(step)
            xp.random.seed(step)
            xv = Variable(x)
            y = model(xv) if model is static else model.forward(xv)
            loss = F.softmax_cross_entropy(y, t)
            model.cleargrads()
            loss.backward()
            results.append((y.array, xv.grad,
                            [p.grad.copy() for p in model.params()]))
            for p in model.params():
                p.array -= 0.1 * p.grad
        (y_s, gx_s, g_s), (y_d, gx_d, g_d) = results
        assert_close(y_s, y_d)
        assert_close(gx_s, gx_d)
        for a, b in zip(g_s, g_d):
            assert_close(a, b)
    for a, b in zip(static.params(), dynamic.params()):
        assert_close(a.array, b.array)


def assert_close(a, b):
    testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def _to_gpu(*models):
    cupy = lazy_cupy.require_cupy()
    for model in models:
        for p in model.params():
            p.array = cupy.asarray(p.array)
        for name in ('avg_mean', 'avg_var'):
            if hasattr(model, name):
                setattr(model, name, cupy.asarray(getattr(model, name)))
    return cupy


@pytest.mark.gpu
def test_convnet_on_the_gpu_matches_define_by_run():
    static, dynamic = StaticConvNet(), ConvNet()
    cupy = _to_gpu(static, dynamic)
    _train_side_by_side(static, dynamic, (2, 2, 4, 4), xp=cupy)
    assert static.static_schedule.generation == 2
    assert_close(static.avg_mean, dynamic.avg_mean)


def test_mlp_matches_define_by_run_over_sgd_steps():
    static = StaticMLP()
    _train_side_by_side(static, MLP(), (4, 5))
    # The first call recorded, the second recorded again and checked the
    # first recording, the two others replayed the schedule.
    assert static.static_schedule.generation == 2


def test_convnet_matches_define_by_run_over_sgd_steps():
    static, dynamic = StaticConvNet(), ConvNet()
    _train_side_by_side(static, dynamic, (2, 2, 4, 4))
    assert static.static_schedule.generation == 2
    # Running statistics are side-effect code made static code.
    numpy.testing.assert_allclose(static.avg_mean, dynamic.avg_mean,
                                  rtol=1e-5)
    numpy.testing.assert_allclose(static.avg_var, dynamic.avg_var, rtol=1e-5)


def test_replay_is_one_node_and_reads_reassigned_parameters():
    static, dynamic = StaticMLP(), MLP()
    x = numpy.ones((2, 5), numpy.float32)
    static(x)
    static(x)
    y = static(x)
    assert isinstance(y.creator, StaticScheduleFunction)
    for p, q in zip(static.params(), dynamic.params()):
        p.array = q.array * 2
        q.array = q.array * 2
    numpy.testing.assert_allclose(static(x).array, dynamic.forward(x).array,
                                  rtol=1e-6)


def test_outputs_of_earlier_calls_are_kept():
    static = StaticMLP()
    x1 = numpy.ones((2, 5), numpy.float32)
    with using_config('enable_backprop', False):
        y1 = static(x1)
        kept = y1.array.copy()
        static(x1 * 3)
        static(x1 * 5)
    numpy.testing.assert_array_equal(y1.array, kept)


def test_no_backprop_calls_share_one_schedule():
    static = StaticMLP()
    x = numpy.ones((2, 5), numpy.float32)
    with using_config('enable_backprop', False):
        for _ in range(3):
            static(x)
    schedules, = static.schedule_manager.schedules.values()
    assert len(schedules) == 1
    assert schedules[0].generation == 1


def test_calls_in_one_pass_get_a_schedule_each():
    static, dynamic = StaticMLP(), MLP()
    rng = numpy.random.RandomState(0)
    for _ in range(3):
        xs = [rng.uniform(size=(2, 5)).astype(numpy.float32)
              for _ in range(2)]
        losses = []
        for model in (static, dynamic):
            call = model if model is static else model.forward
            model.cleargrads()
            loss = F.sum(call(xs[0]) * call(xs[1]))
            loss.backward()
            losses.append([p.grad for p in model.params()])
        for a, b in zip(*losses):
            numpy.testing.assert_allclose(a, b, rtol=1e-5)
    schedules, = static.schedule_manager.schedules.values()
    assert len(schedules) == 2


def test_check_backward_through_a_static_chain():
    static = StaticMLP()
    x = numpy.random.uniform(-1, 1, (3, 5)).astype(numpy.float32)
    gy = numpy.random.uniform(-1, 1, (3, 3)).astype(numpy.float32)
    static(x)
    gradient_check.check_backward(static, x, gy, static.params(),
                                  dtype=numpy.float64, atol=1e-3, rtol=1e-3)


class StaticTanhMLP(MLP):
    """Curved everywhere: second derivatives of every parameter."""

    @static_graph
    def __call__(self, x):
        return F.tanh(self.forward(F.sigmoid(x)))


def test_check_double_backward_through_replays():
    static = StaticTanhMLP()
    rng = numpy.random.RandomState(2)
    x, ggx = rng.uniform(-1, 1, (2, 3, 5)).astype(numpy.float32)
    gy = rng.uniform(-1, 1, (3, 3)).astype(numpy.float32)
    static(x)
    static(x)  # recorded twice: the checks' calls replay
    ggp = [rng.uniform(-1, 1, p.shape).astype(numpy.float32)
           for p in static.params()]
    gradient_check.check_double_backward(
        static, x, gy, ggx, static.params(), ggp, dtype=numpy.float64,
        atol=1e-4, rtol=1e-4)
    assert isinstance(static(x).creator, StaticScheduleFunction)


@pytest.mark.parametrize('static, dynamic', [
    (StaticMLP, MLP), (StaticConvNet, ConvNet)])
def test_gradient_penalty_through_replays_matches_define_by_run(
        static, dynamic):
    """A loss with the gradient of the output w.r.t. the input (a gradient
    penalty, as in WGAN-GP) trains as define-by-run does, replays too."""
    static, dynamic = static(), dynamic()
    shape = (2, 2, 4, 4) if isinstance(static, ConvNet) else (3, 5)
    rng = numpy.random.RandomState(3)
    for step in range(4):
        x = rng.uniform(-1, 1, shape).astype(numpy.float32)
        results = []
        for model in (static, dynamic):
            numpy.random.seed(step)
            xv = Variable(x)
            y = model(xv) if model is static else model.forward(xv)
            gx, = grad([F.sum(F.tanh(y))], [xv], enable_double_backprop=True)
            model.cleargrads()
            (F.sum(y * y) + F.sum(gx * gx)).backward()
            results.append([gx.array, xv.grad] +
                           [p.grad.copy() for p in model.params()])
            for p in model.params():
                p.array -= 0.01 * p.grad
        for a, b in zip(*results):
            # (The convolution's bias gets a gradient of 0 through batch
            # normalization, up to rounding: tolerances of the scale of
            # the other gradients.)
            testing.assert_allclose(a, b, rtol=1e-5,
                                    atol=1e-6 * max(1, abs(b).max()))
    assert static.static_schedule.generation == 2


class Switching(MLP):
    """Not static: the function it applies alternates."""

    calls = 0

    @static_graph
    def __call__(self, x):
        self.calls += 1
        h = F.linear(x, self.W1, self.b1)
        return F.relu(h) if self.calls % 2 else F.tanh(h)


def test_a_dynamic_chain_is_an_error():
    model = Switching()
    x = numpy.ones((2, 5), numpy.float32)
    y = model(x)  # held: its schedule is in use until its backward
    with pytest.raises(DynamicGraphError, match='not static'):
        model(x)  # the second call of the pass records again and differs
    assert y is not None


def test_debug_mode_checks_every_call():
    model = Switching()
    x = numpy.ones((2, 5), numpy.float32)
    with using_config('enable_backprop', False):
        model(x)
        with using_config('debug', True), \
                pytest.raises(DynamicGraphError):
            model(x)


class WithSideEffects(MLP):

    def __init__(self):
        super().__init__()
        self.counter = 0

    @static_code
    def count(self):
        self.counter += 1

    @static_code
    def offset(self, x):
        return x + self.counter

    @static_graph
    def __call__(self, x):
        self.count()
        return F.linear(self.offset(x), self.W1, self.b1)


def test_static_code_runs_on_every_call():
    model = WithSideEffects()
    x = numpy.zeros((1, 5), numpy.float32)
    with using_config('enable_backprop', False):
        for _ in range(3):
            y = model(x)
    assert model.counter == 3
    expected = F.linear(x + 3, model.W1, model.b1).array
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)


def test_use_static_graph_false_runs_define_by_run():
    model = StaticMLP()
    x = numpy.ones((2, 5), numpy.float32)
    with using_config('use_static_graph', False):
        for _ in range(2):
            y = model(x)
    assert not hasattr(model, 'schedule_manager')
    assert not hasattr(model, 'static_schedule')
    assert not isinstance(y.creator, StaticScheduleFunction)


class Outer(MLP):

    def __init__(self):
        super().__init__()
        self.inner = StaticMLP()

    @static_graph
    def __call__(self, x):
        return self.inner(x)


def test_nested_static_graph_is_an_error():
    with pytest.raises(RuntimeError, match='nested'):
        Outer()(numpy.ones((2, 5), numpy.float32))


def test_backward_of_a_call_after_later_replays():
    static, dynamic = StaticConvNet(), ConvNet()
    rng = numpy.random.RandomState(0)
    xs = [rng.uniform(-1, 1, (2, 2, 4, 4)).astype(numpy.float32)
          for _ in range(3)]
    static(xs[0])
    outputs = []
    for i, x in enumerate(xs):
        numpy.random.seed(i)
        outputs.append(static(x))
        static.schedule_manager.end_forward()  # runs the one schedule again
    for i in reversed(range(3)):
        numpy.random.seed(i)
        expected = dynamic.forward(xs[i])
        for model, y in ((static, outputs[i]), (dynamic, expected)):
            model.cleargrads()
            y.grad = numpy.ones_like(y.array)
            y.backward()
        for p, q in zip(static.params(), dynamic.params()):
            numpy.testing.assert_allclose(p.grad, q.grad, rtol=1e-5,
                                          atol=1e-6)


class Triple(FunctionNode):
    """y = 3x, opted in: its static code writes into a preallocated y."""

    _supports_static_optimizations = True

    @static_code
    def static_forward(self, inputs, outputs):
        outputs[0][...] = 3 * inputs[0]

    def forward(self, inputs):
        y = numpy.empty_like(inputs[0])
        self.static_forward(inputs=[inputs[0]], outputs=[y])
        return y,

    def backward(self, indexes, grad_outputs):
        return 3 * grad_outputs[0],


class TripleChain(MLP):

    @static_graph
    def __call__(self, x):
        return F.relu(Triple().apply((F.linear(x, self.W1, self.b1),))[0])


def test_a_node_that_opts_in_replays_its_static_code():
    model = TripleChain()
    rng = numpy.random.RandomState(0)
    for _ in range(3):
        x = rng.uniform(-1, 1, (2, 5)).astype(numpy.float32)
        model.cleargrads()
        y = model(x)
        y.grad = numpy.ones_like(y.array)
        y.backward()
        h = x.dot(model.W1.array.T) + model.b1.array
        numpy.testing.assert_allclose(y.array, numpy.maximum(3 * h, 0),
                                      rtol=1e-6)
        numpy.testing.assert_allclose(
            model.b1.grad, (3 * (h > 0)).sum(axis=0), rtol=1e-6)
    kinds = [step.kind for step in model.static_schedule.steps]
    assert Triple not in kinds  # its static code ran, not its forward


def test_backward_of_an_overwritten_opted_in_run_is_an_error():
    model = TripleChain()
    x = numpy.ones((2, 5), numpy.float32)
    model(x)
    y1 = model(x)
    model.schedule_manager.end_forward()
    model(x * 2)  # Triple's preallocated output now holds this call's
    y1.grad = numpy.ones_like(y1.array)
    with pytest.raises(RuntimeError, match='ran its schedule again'):
        y1.backward()


class Halve(Function):
    """An old-style Function keeping state on itself between forward and
    backward: each replay must keep its own."""

    def forward(self, inputs):
        self.factor = inputs[0].dtype.type(0.5) * (inputs[0] > 0)
        return inputs[0] * self.factor,

    def backward(self, inputs, grad_outputs):
        return grad_outputs[0] * self.factor,


class HalveChain(MLP):

    @static_graph
    def __call__(self, x):
        return Halve()(F.linear(x, self.W1, self.b1))


def test_old_style_functions_keep_their_state_per_call():
    model = HalveChain()
    rng = numpy.random.RandomState(0)
    xs = [rng.uniform(-1, 1, (2, 5)).astype(numpy.float32) for _ in range(3)]
    model(xs[0])
    ys = []
    for x in xs:
        ys.append(model(x))
        model.schedule_manager.end_forward()
    for x, y in zip(xs, ys):
        model.cleargrads()
        y.grad = numpy.ones_like(y.array)
        y.backward()
        h = x.dot(model.W1.array.T) + model.b1.array
        numpy.testing.assert_allclose(model.b1.grad,
                                      (0.5 * (h > 0)).sum(axis=0), rtol=1e-6)


class ScaleByDraw(FunctionNode):
    """y = s x for a scale ``s`` its forward draws (a plain float kept on
    the node): each run needs a node of its own."""

    def forward(self, inputs):
        self.scale = float(numpy.random.uniform(1, 2))
        return inputs[0] * inputs[0].dtype.type(self.scale),

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * self.scale,


class ScaleByDrawChain(MLP):

    @static_graph
    def __call__(self, x):
        return ScaleByDraw().apply((F.linear(x, self.W1, self.b1),))[0]


def test_a_node_keeping_a_value_that_changes_is_applied_anew_per_call():
    model = ScaleByDrawChain()
    x = numpy.ones((2, 5), numpy.float32)
    model(x)
    ys, scales = [], []
    for seed in range(3):
        numpy.random.seed(seed)
        scales.append(numpy.random.uniform(1, 2))
        numpy.random.seed(seed)
        ys.append(model(x))
        model.schedule_manager.end_forward()
    assert isinstance(ys[-1].creator, StaticScheduleFunction)
    for y, scale in zip(ys, scales):
        model.cleargrads()
        y.grad = numpy.ones_like(y.array)
        y.backward()
        numpy.testing.assert_allclose(
            model.b1.grad, numpy.full(8, 2 * scale, numpy.float32),
            rtol=1e-6)


def test_nodes_keeping_only_the_same_plain_values_are_shared():
    model = StaticMLP()
    x = numpy.ones((2, 5), numpy.float32)
    for _ in range(3):
        model(x)
    steps = model.static_schedule._node_steps
    shared = [step.shared for step in steps]
    assert all(node is not None for node in shared)
    model(x)  # a replay applies the same nodes again
    assert [step.shared for step in steps] == shared


class TwiceWithArrayBackward(FunctionNode):
    """y = 2x, with an array-level backward that counts its calls."""

    calls = 0

    def forward(self, inputs):
        return inputs[0] * inputs[0].dtype.type(2),

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * 2,

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        type(self).calls += 1
        return grad_outputs[0] * grad_outputs[0].dtype.type(2),


class TwiceChain(MLP):

    @static_graph
    def __call__(self, x):
        h = TwiceWithArrayBackward().apply((F.linear(x, self.W1, self.b1),))
        return F.sum(h[0] * h[0])


def test_a_replay_calls_the_array_level_backward_where_there_is_one():
    model = TwiceChain()
    x = numpy.random.RandomState(0).uniform(-1, 1, (2, 5)).astype(
        numpy.float32)
    h = 2 * (x.dot(model.W1.array.T) + model.b1.array)
    for call in range(4):
        TwiceWithArrayBackward.calls = 0
        model.cleargrads()
        model(x).backward()
        # Recording calls (define-by-run, no graph recorded by the
        # backward) and replays alike run the array-level backward.
        assert TwiceWithArrayBackward.calls == 1
        numpy.testing.assert_allclose(model.b1.grad, (4 * h).sum(axis=0),
                                      rtol=1e-6)


class Accumulator(MLP):
    """h = tanh(W1 x + b1 + h_prev): ``h`` is a state Variable kept in an
    attribute between calls (None at first), as a recurrent link's."""

    def __init__(self):
        super().__init__()
        self.h = None

    def forward(self, x):
        a = F.linear(x, self.W1, self.b1)
        self.h = F.tanh(a if self.h is None else a + self.h)
        return self.h


class StaticAccumulator(Accumulator):

    @static_graph
    def __call__(self, x):
        return self.forward(x)


def test_a_state_kept_between_calls_is_read_and_set_by_replays():
    static, dynamic = StaticAccumulator(), Accumulator()
    rng = numpy.random.RandomState(0)
    replays = 0
    for step in range(6):
        xs = [rng.uniform(-1, 1, (2, 5)).astype(numpy.float32)
              for _ in range(3)]
        for model in (static, dynamic):
            model.cleargrads()
            loss = 0
            for x in xs:
                y = model(x) if model is static else model.forward(x)
                replays += isinstance(y.creator, StaticScheduleFunction)
                loss += F.sum(y ** 2)
            loss.backward()
            loss.unchain_backward()
        assert_close(static.h.array, dynamic.h.array)
        for name in ('W1', 'b1'):  # (W2 and b2 are not used)
            assert_close(getattr(static, name).grad,
                         getattr(dynamic, name).grad)
    assert replays >= 6


def test_a_schedule_lets_its_arrays_go_after_a_call():
    model = StaticMLP()
    with using_config('enable_backprop', False):
        for _ in range(2):
            x = numpy.ones((2, 5), numpy.float32)
            y = model(x)
    inputs, output = weakref.ref(x), weakref.ref(y.array)
    del x, y
    assert inputs() is None and output() is None


def test_verbosity_level_reports_new_schedules(capsys):
    class Verbose(MLP):
        @static_graph(verbosity_level=2)
        def __call__(self, x):
            return self.forward(x)

    model = Verbose()
    model(numpy.ones((2, 5), numpy.float32))
    printed = capsys.readouterr().out
    assert 'Verbose.__call__: recorded schedule 0' in printed
    assert 'LinearFunction' in printed


class FixedStatistics(ConvNet):
    """Test-mode normalization by the model's own statistics arrays."""

    @static_graph
    def __call__(self, x):
        return F.fixed_batch_normalization(x, self.gamma, self.beta,
                                           self.avg_mean, self.avg_var)


def test_array_attributes_are_read_again_on_every_replay():
    model = FixedStatistics()
    x = numpy.random.RandomState(0).uniform(size=(2, 4)).astype(numpy.float32)

    def expected():
        return F.fixed_batch_normalization(
            x, model.gamma, model.beta, model.avg_mean, model.avg_var).array

    with using_config('enable_backprop', False):
        model(x)
        model(x)
        # Set anew (as moving the model to a device and back does).
        model.avg_mean = numpy.full(4, 0.5, numpy.float32)
        assert_close(model(x).array, expected())
        model.avg_var = numpy.full(4, 2.0, numpy.float32)
        assert_close(model(x).array, expected())
    schedules, = model.schedule_manager.schedules.values()
    assert schedules[0].generation == 2  # replayed, not recorded again


class ComputesInPython(MLP):
    """Not static: an input of a function is computed from data in Python,
    outside any function, so a replay would reuse the recorded one."""

    @static_graph
    def __call__(self, x):
        mask = (x.array > 0.5).astype(numpy.float32)
        return F.linear(x * mask, self.W1, self.b1)


def test_a_constant_computed_from_data_is_an_error_when_recorded_again():
    model = ComputesInPython()
    rng = numpy.random.RandomState(0)
    xs = [Variable(rng.uniform(size=(2, 5)).astype(numpy.float32))
          for _ in range(2)]
    with using_config('enable_backprop', False), \
            using_config('debug', True):
        model(xs[0])
        with pytest.raises(DynamicGraphError, match='outside functions'):
            model(xs[1])


class ReturnsFromPython(MLP):
    """Not static: an output is computed from data in Python, so a replay
    would return the recorded one."""

    @static_graph
    def __call__(self, x):
        share = Variable(numpy.asarray((x.array > 0.5).mean()))
        return F.linear(x, self.W1, self.b1), share


def test_an_output_computed_from_data_is_an_error_when_recorded_again():
    model = ReturnsFromPython()
    with using_config('enable_backprop', False):
        model(Variable(numpy.full((2, 5), 0.7, numpy.float32)))
        with pytest.raises(DynamicGraphError, match='its output 1'):
            model(Variable(numpy.full((2, 5), 0.2, numpy.float32)))


def test_constants_that_stay_the_same_are_no_error():
    model = ComputesInPython()
    x = Variable(numpy.full((2, 5), 0.7, numpy.float32))
    y = model(x)
    model(x)  # recorded again (y holds the first schedule), same constant
    assert y is not None


class _Pattern:
    """Indexes a node keeps in an object of its own."""

    def __init__(self, index):
        self.index = index


class _Take(FunctionNode):
    """x's elements at the indexes of its pattern."""

    def __init__(self, pattern):
        self.pattern = pattern

    def forward(self, inputs):
        x, = inputs
        return x[self.pattern.index],


class TakesInPython:
    """Not static: the indexes of a node are computed from data in
    Python, in an object the node keeps."""

    def params(self):
        return []

    @static_graph
    def __call__(self, x):
        return _Take(_Pattern(x.array.argsort())).apply((x,))[0]


def test_arguments_in_an_object_of_a_node_are_compared_too():
    chain = TakesInPython()
    with using_config('enable_backprop', False):
        chain(Variable(numpy.array([1., 2.])))
        with pytest.raises(DynamicGraphError, match="'pattern'"):
            chain(Variable(numpy.array([2., 1.])))


class BlackOut:
    """A static chain of black_out, whose masks depend on which sample of
    a row scores highest."""

    def params(self):
        return []

    @static_graph
    def __call__(self, x, W):
        samples = numpy.array([[1, 2], [2, 1]], numpy.int32)
        return F.black_out(x, numpy.array([0, 0], numpy.int32), W, samples)


def test_black_out_finds_each_rows_top_sample_on_replays():
    W = numpy.eye(3, dtype=numpy.float32)
    # The first sample of each row tops the rest by far in the two
    # recordings, the second in the replay: log1p(-p) of a stale top
    # sample would be log1p(-1) = -inf.
    inputs = [[[0, 30, 1], [0, 1, 30]], [[0, 31, 1], [0, 1, 31]],
              [[0, 1, 30], [0, 30, 1]]]
    chain = BlackOut()
    for x in inputs:
        static = [Variable(numpy.array(x, numpy.float32)), Variable(W)]
        chain(*static).backward()
        dynamic = [Variable(numpy.array(x, numpy.float32)), Variable(W)]
        loss = F.black_out(dynamic[0], numpy.array([0, 0], numpy.int32),
                           dynamic[1],
                           numpy.array([[1, 2], [2, 1]], numpy.int32))
        loss.backward()
        for a, b in zip(static, dynamic):
            testing.assert_allclose(a.grad, b.grad)


class InTestMode(MLP):
    """Sets the configuration around a function itself: rrelu's slopes are
    random in training, (1/8 + 1/3) / 2 in testing."""

    @static_graph
    def __call__(self, x):
        with using_config('train', False):
            return F.rrelu(F.linear(x, self.W1, self.b1))


def test_configuration_the_chain_sets_is_set_on_replays_too():
    model = InTestMode()
    x = numpy.random.RandomState(0).uniform(-1, 1, (4, 5)).astype(
        numpy.float32)
    h = F.linear(x, model.W1, model.b1).array
    expected = numpy.where(h >= 0, h, h * (1 / 8 + 1 / 3) / 2)
    for _ in range(3):
        assert_close(model(x).array, expected)
    assert model.static_schedule.generation == 1


def test_a_copy_records_its_own_schedules():
    model = StaticMLP()
    x = numpy.ones((2, 5), numpy.float32)
    for _ in range(3):
        model(x)
    twin = copy.deepcopy(model)
    assert twin.schedule_manager is None and twin.static_schedule is None
    twin.W1.array[...] = 0
    assert_close(twin(x).array, twin.forward(x).array)
    assert twin.schedule_manager is not model.schedule_manager
    restored = pickle.loads(pickle.dumps(model))
    assert_close(restored(x).array, model(x).array)


def test_a_replayed_schedule_is_checked_again_now_and_then():
    model = ComputesInPython()
    same = Variable(numpy.full((2, 5), 0.7, numpy.float32))
    with using_config('enable_backprop', False):
        model(same)
        model(same)  # the two recordings agree: replays follow
        changed = Variable(numpy.full((2, 5), 0.2, numpy.float32))
        with pytest.raises(DynamicGraphError):
            for _ in range(9):
                model(changed)  # the 9th records again, and differs
    schedules, = model.schedule_manager.schedules.values()
    assert schedules[0].generation == 8


def _ids(params):
    return sorted(id(p) for p in params)


def test_replayed_parameters_are_those_a_pending_backward_of_a_replay_gives():
    model = StaticMLP()
    x = numpy.ones((2, 5), numpy.float32)
    for _ in range(2):  # the recordings: define-by-run nodes
        y = model(x)
        assert replayed_parameters(model) == []
        F.sum(y).backward()
    y = model(x)
    assert isinstance(y.creator, StaticScheduleFunction)
    assert _ids(replayed_parameters(model)) == _ids(model.params())
    F.sum(y).backward()  # ends the forward pass
    assert replayed_parameters(model) == []
    with using_config('enable_backprop', False):
        model(x)  # a replay with no backward to come
    assert replayed_parameters(model) == []
