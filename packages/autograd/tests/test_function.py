import gc
import weakref

import numpy
import pytest

from kusari.array import lazy_cupy
from kusari.array.configuration import using_config
from kusari.autograd import Variable
from kusari.autograd import computational_graph
from kusari.autograd import function
from kusari.autograd import function_hooks
from kusari.autograd import functions as F
from kusari.autograd import gradient_check
from kusari.autograd import no_backprop_mode
from kusari.autograd.utils import type_check


class MulAdd(function.Function):
    """w = x * y + z, as in the old-style tutorial."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'y', 'z'))
        type_check.expect(in_types[0].dtype.kind == 'f',
                          in_types[0].shape == in_types[1].shape)

    def forward_cpu(self, inputs):
        x, y, z = inputs
        return x * y + z,

    def backward_cpu(self, inputs, grad_outputs):
        x, y, z = inputs
        gw, = grad_outputs
        return y * gw, x * gw, gw

    forward_gpu = forward_cpu
    backward_gpu = backward_cpu


class OldLinear(function.Function):
    """y = x W^T + b; backward uses x and W, so b is not retained."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W, b = inputs
        return x.dot(W.T) + b,

    def backward(self, inputs, grad_outputs):
        x, W, b = inputs
        assert b is None
        gy, = grad_outputs
        return gy.dot(W), gy.T.dot(x), gy.sum(axis=0)


class Recorder(function.Function):
    """y = 2x (and 3x as a second output if asked); records what its
    backward receives."""

    def __init__(self, two_outputs=False, retain=None):
        self.two_outputs = two_outputs
        self.retain = retain
        self.received = None

    def forward(self, inputs):
        if self.retain is not None:
            self.retain_inputs(self.retain)
        x = inputs[0]
        return (x * 2, x * 3) if self.two_outputs else (x * 2,)

    def backward(self, inputs, grad_outputs):
        self.received = inputs, grad_outputs
        gx = sum(k * gy for k, gy in zip((2, 3), grad_outputs)
                 if gy is not None)
        return (gx,) + (None,) * (len(inputs) - 1)


def uniform(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


def test_muladd_forward_and_check_backward():
    x, y, z = uniform(3, 2), uniform(3, 2), uniform(3, 2)
    w = MulAdd()(Variable(x), Variable(y), Variable(z))
    assert isinstance(w, Variable)
    numpy.testing.assert_allclose(w.array, x * y + z)
    gradient_check.check_backward(
        lambda *v: MulAdd()(*v), (x, y, z), uniform(3, 2), atol=1e-3,
        rtol=1e-3)


def test_old_style_linear_check_backward():
    x, W, b = uniform(4, 3), uniform(2, 3), uniform(2)
    y = OldLinear()(x, W, b)
    numpy.testing.assert_allclose(y.array, x.dot(W.T) + b, rtol=1e-6)
    gradient_check.check_backward(
        lambda *v: OldLinear()(*v), (x, W, b), uniform(4, 2),
        dtype=numpy.float64, atol=1e-3, rtol=1e-3)


def test_all_inputs_are_retained_by_default():
    f = Recorder()
    x = Variable(uniform(2))
    y = f(x, uniform(3))
    y.grad = numpy.ones(2, dtype=numpy.float32)
    y.backward()
    inputs, _ = f.received
    numpy.testing.assert_array_equal(inputs[0], x.array)
    assert inputs[1].shape == (3,)
    numpy.testing.assert_array_equal(x.grad, numpy.full(2, 2))


@pytest.mark.parametrize('retain, kept', [((), (False, False)),
                                          ((1,), (False, True))])
def test_retain_inputs_chooses_what_backward_gets(retain, kept):
    f = Recorder(retain=retain)
    x = Variable(uniform(2))
    F.sum(f(x, uniform(3))).backward()
    inputs, _ = f.received
    assert tuple(a is not None for a in inputs) == kept


def test_retain_outputs_gives_output_data():
    class Tanh(function.Function):
        def forward(self, inputs):
            self.retain_outputs((0,))
            return numpy.tanh(inputs[0]),

        def backward(self, inputs, grad_outputs):
            y, = self.output_data
            return grad_outputs[0] * (1 - y * y),

    x = uniform(3)
    gradient_check.check_backward(lambda v: Tanh()(v), x, uniform(3),
                                  atol=1e-3, rtol=1e-3)
    f = Tanh()
    y = f(Variable(x))
    assert f.output_data[0] is y.array


def test_retain_after_backward_is_deprecated():
    class Warns(function.Function):
        def forward(self, inputs):
            self.retain_outputs((0,), retain_after_backward=True)
            return inputs[0] * 1,

    with pytest.warns(DeprecationWarning, match='retain_after_backward'):
        Warns()(Variable(uniform(2)))


@pytest.mark.parametrize('double_backprop', [False, True])
def test_missing_output_gradient_reaches_backward_as_none(double_backprop):
    f = Recorder(two_outputs=True, retain=())
    x = Variable(uniform(2))
    a, b = f(x)
    F.sum(b).backward(enable_double_backprop=double_backprop)
    assert f.received[0] == (None,)
    _, grad_outputs = f.received
    assert grad_outputs[0] is None
    numpy.testing.assert_array_equal(grad_outputs[1], numpy.ones(2))
    numpy.testing.assert_array_equal(x.grad, numpy.full(2, 3))


def test_node_inputs_outputs_and_creator():
    f = MulAdd()
    node = f.node
    assert isinstance(node, function.FunctionAdapter)
    assert node.function is f and f.node is node
    assert f.inputs is None and f.label == 'MulAdd' == node.label
    xs = [Variable(uniform(2)) for _ in range(3)]
    w = f(*xs)
    assert f.node is node
    assert w.creator is f and w.creator_node is node
    assert f.inputs == tuple(x.node for x in xs)
    assert [ref() for ref in f.outputs] == [w.node]
    assert f.rank == 0 and w.rank == 1


def test_function_without_backward_gives_no_gradient():
    class Forward(function.Function):
        def forward(self, inputs):
            return inputs[0] * 2,

    x = Variable(uniform(2))
    F.sum(Forward()(x) + x).backward()
    numpy.testing.assert_array_equal(x.grad, numpy.ones(2))


def test_hooks_see_old_style_functions():
    hook = function_hooks.TimerHook()
    f = MulAdd()
    f.add_hook(hook)
    assert f.local_function_hooks == {'TimerHook': hook}
    w = f(*[Variable(uniform(2)) for _ in range(3)])
    F.sum(w).backward()
    assert [name for name, _ in hook.call_history] == ['MulAdd', 'MulAdd']
    f.delete_hook('TimerHook')
    assert f.local_function_hooks == {}
    with function_hooks.TimerHook() as global_hook:
        MulAdd()(*[Variable(uniform(2)) for _ in range(3)])
    assert global_hook.call_history[0][0] == 'MulAdd'


def test_type_check_error_names_the_function():
    with pytest.raises(type_check.InvalidType, match='MulAdd'):
        MulAdd()(uniform(2), uniform(3), uniform(2))
    with pytest.raises(type_check.InvalidType, match='MulAdd'):
        MulAdd()(*[numpy.ones(2, dtype=numpy.int32)] * 3)


def test_double_backprop_through_old_style_function_raises():
    x = Variable(uniform(3))
    w = MulAdd()(x, x, x)
    w.grad = numpy.ones(3, dtype=numpy.float32)
    w.backward(enable_double_backprop=True)
    # First-order values are right in this mode too: d(x*x + x)/dx.
    numpy.testing.assert_allclose(x.grad, 2 * x.array + 1, rtol=1e-6)
    gx = x.grad_var
    x.cleargrad()
    with pytest.raises(RuntimeError, match='old-style Function MulAdd'):
        F.sum(gx).backward()


def test_bad_backward_results_name_the_function():
    class Returns(function.Function):
        def __init__(self, result):
            self.result = result

        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, inputs, grad_outputs):
            return self.result(grad_outputs[0])

    cases = [(lambda gy: gy, TypeError, 'tuple'),
             (lambda gy: (gy, gy), ValueError, '2 gradients for 1'),
             (lambda gy: (1.0,), TypeError, 'float'),
             (lambda gy: (gy[:1],), ValueError,
              'Shape of data and grad mismatch')]
    for result, error, message in cases:
        y = Returns(result)(Variable(uniform(2)))
        y.grad = numpy.ones(2, dtype=numpy.float32)
        with pytest.raises(error, match=message) as info:
            y.backward()
        assert 'Returns' in str(info.value)


def test_forward_must_be_implemented():
    class Nothing(function.Function):
        pass

    with pytest.raises(NotImplementedError, match='Nothing'):
        Nothing()(uniform(2))


def test_graph_owns_the_function_without_cycles():
    f = MulAdd()
    ref = weakref.ref(f)
    w = f(*[Variable(uniform(2)) for _ in range(3)])
    del f
    assert ref() is not None
    gc.disable()
    try:
        del w
        assert ref() is None
    finally:
        gc.enable()


def test_unchain_cuts_the_function_off():
    f = MulAdd()
    w = f(*[Variable(uniform(2)) for _ in range(3)])
    f.unchain()
    assert w.creator is None and f.inputs is None


def test_no_graph_under_no_backprop_mode():
    with no_backprop_mode():
        w = MulAdd()(*[Variable(uniform(2)) for _ in range(3)])
    assert w.creator is None


def test_debug_mode_names_old_style_function_on_nan():
    class MakesNan(function.Function):
        def forward(self, inputs):
            return inputs[0] * numpy.float32('nan'),

    with using_config('debug', True):
        with pytest.raises(RuntimeError, match='MakesNan'):
            MakesNan()(uniform(2))


def test_graph_drawing_uses_the_function_label():
    w = MulAdd()(*[Variable(uniform(2)) for _ in range(3)])
    dot = computational_graph.build_computational_graph([w]).dump()
    assert 'label="MulAdd"' in dot


@pytest.mark.gpu
def test_gpu_methods_are_used_for_cupy_arrays():
    cupy = lazy_cupy.require_cupy()
    x, y, z = [cupy.asarray(uniform(3)) for _ in range(3)]
    gradient_check.check_backward(
        lambda *v: MulAdd()(*v), (x, y, z), cupy.asarray(uniform(3)),
        atol=1e-3, rtol=1e-3)
