import gc
import weakref

import numpy
import pytest

import kusari.autograd as autograd
from kusari.array.configuration import using_config
from kusari.autograd import FunctionNode
from kusari.autograd import Variable
from kusari.autograd import force_backprop_mode
from kusari.autograd import function_hooks
from kusari.autograd import functions as F
from kusari.autograd import gradient_check
from kusari.autograd import no_backprop_mode
from kusari.autograd.utils import type_check


def f32(values):
    return numpy.array(values, dtype=numpy.float32)


def uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


class MulAdd(FunctionNode):
    """w = x * y + z, the new-style tutorial function."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'y', 'z'))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, y, z = inputs
        return x * y + z,

    def backward(self, target_input_indexes, grad_outputs):
        x, y = self.get_retained_inputs()
        gw, = grad_outputs
        return y * gw, x * gw, gw


def muladd(x, y, z):
    return MulAdd().apply((x, y, z))[0]


def test_tutorial_muladd_first_and_second_order():
    x, y, z = uniform(3, 2), uniform(3, 2), uniform(3, 2)
    gradient_check.check_backward(muladd, (x, y, z), uniform(3, 2),
                                  atol=1e-3, rtol=1e-3)
    gradient_check.check_double_backward(
        muladd, (x, y, z), uniform(3, 2),
        (uniform(3, 2), uniform(3, 2), uniform(3, 2)), atol=1e-3,
        rtol=1e-3)


def test_apply_returns_a_tuple_and_links_the_graph():
    x = Variable(uniform(2))
    node = MulAdd()
    outputs = node.apply((x, uniform(2), uniform(2)))
    assert isinstance(outputs, tuple) and len(outputs) == 1
    w, = outputs
    assert w.creator_node is node and w.creator is node
    assert node.inputs[0] is x.node and node.label == 'MulAdd'
    assert node.outputs[0]() is w.node
    assert w.rank == 1 and node.rank == 0


def test_backward_is_asked_only_for_inputs_needing_gradients():
    seen = []

    class Records(MulAdd):
        def backward(self, target_input_indexes, grad_outputs):
            seen.append(target_input_indexes)
            return super().backward(target_input_indexes, grad_outputs)

    x = Variable(uniform(2))
    z = Variable(uniform(2), requires_grad=False)
    F.sum(Records().apply((uniform(2), x, z))[0]).backward()
    assert seen == [(1,)]
    assert z.grad is None and x.grad is not None


def test_forward_must_return_a_tuple_of_arrays():
    class ReturnsArray(FunctionNode):
        def forward(self, inputs):
            return inputs[0]

    class ReturnsFloat(FunctionNode):
        def forward(self, inputs):
            return 1.0,

    for node_class in (ReturnsArray, ReturnsFloat):
        with pytest.raises(TypeError, match=node_class.__name__):
            node_class().apply((uniform(2),))


def test_type_check_names_the_function():
    with pytest.raises(type_check.InvalidType) as info:
        muladd(*[numpy.ones(2, dtype=numpy.int32)] * 3)
    assert 'MulAdd' in str(info.value)
    with using_config('type_check', False):
        muladd(*[numpy.ones(2, dtype=numpy.int32)] * 3)


def test_a_failing_forward_without_a_graph_gets_the_type_check_error():
    # No graph, no type check up front: only the failure runs it, so the
    # user sees the function's error, not NumPy's.
    words = numpy.array(['a', 'b'])
    with no_backprop_mode():
        with pytest.raises(type_check.InvalidType, match='sin'):
            F.sin(words)
        with using_config('type_check', False), \
                pytest.raises(Exception) as info:
            F.sin(words)
    assert not isinstance(info.value, type_check.InvalidType)


def test_inputs_must_be_variables_or_arrays():
    with pytest.raises(TypeError, match='MulAdd'):
        MulAdd().apply((1.0, uniform(1), uniform(1)))


# -- recording modes ----------------------------------------------------


def test_no_backprop_mode_records_no_graph():
    x = Variable(uniform(2))
    with no_backprop_mode():
        y = x * 2
        assert y.creator is None
        with force_backprop_mode():
            z = x * 2
        assert z.creator is not None
    assert (x * 2).creator is not None
    F.sum(z).backward()
    numpy.testing.assert_array_equal(x.grad, f32([2, 2]))


# -- grad and backward --------------------------------------------------


def chain():
    x = Variable(f32([1, 2]))
    h = x * 3
    y = F.sum(h * h)
    return x, h, y


def test_grad_leaves_grads_untouched():
    x, h, y = chain()
    gx, = autograd.grad([y], [x])
    numpy.testing.assert_allclose(gx.array, 18 * x.array)
    assert x.grad is None and h.grad is None and y.grad is None


def test_grad_with_respect_to_intermediate_inputs():
    x, h, y = chain()
    gh, gx = autograd.grad([y], [h, x])
    numpy.testing.assert_allclose(gh.array, 2 * h.array)
    numpy.testing.assert_allclose(gx.array, 18 * x.array)
    gh, = autograd.grad([y], [h])
    numpy.testing.assert_allclose(gh.array, 2 * h.array)


def test_grad_set_grad_grad_outputs_and_grad_inputs():
    x, h, y = chain()
    gx, = autograd.grad([y], [x], grad_outputs=[f32(2)], set_grad=True)
    numpy.testing.assert_allclose(gx.array, 36 * x.array)
    assert x.grad_var is gx
    gx, = autograd.grad([y], [x], grad_inputs=[f32([1, 1])])
    numpy.testing.assert_allclose(gx.array, 18 * x.array + 1)
    with pytest.raises(ValueError, match='grad_inputs'):
        autograd.grad([y], [x], grad_inputs=[None, None])
    with pytest.raises(TypeError, match='outputs'):
        autograd.grad(y, [x])


def test_grad_of_unreachable_input_is_none():
    x, h, y = chain()
    other = Variable(f32([1]))
    assert autograd.grad([y], [other]) == [None]


def test_grad_twice_for_second_order():
    x = Variable(f32([1, 2]))
    y = F.sum(x ** 3)
    gx, = autograd.grad([y], [x], enable_double_backprop=True)
    ggx, = autograd.grad([F.sum(gx)], [x])
    numpy.testing.assert_allclose(ggx.array, 6 * x.array)


def test_grad_with_loss_scale():
    x, h, y = chain()
    gx, = autograd.grad([y], [x], loss_scale=4)
    numpy.testing.assert_allclose(gx.array, 72 * x.array)


def test_backward_of_several_outputs():
    x = Variable(f32([1, 2]))
    y1 = F.sum(x * 2)
    y2 = x * x
    autograd.backward([y1, y2], [None, f32([1, 10])])
    numpy.testing.assert_allclose(x.grad, 2 + 2 * x.array * f32([1, 10]))
    # As in Chainer: None means the output's own grad; a non-scalar
    # output with none is skipped (with a warning when no grad_outputs
    # are given at all).
    x.cleargrad()
    y2.grad = f32([3, 4])
    autograd.backward([y1, y2])
    numpy.testing.assert_allclose(x.grad, 2 + 2 * x.array * f32([3, 4]))
    assert y2.grad is None  # dropped, as intermediate gradients are
    x.cleargrad()
    y3 = x * x
    autograd.backward([y1, y3], [None, None])
    numpy.testing.assert_allclose(x.grad, f32([2, 2]))
    x.cleargrad()
    with pytest.warns(RuntimeWarning, match='skipped'):
        autograd.backward([x * x])
    assert x.grad is None


def test_grad_of_a_non_scalar_output_starts_from_ones():
    x = Variable(f32([1, 2]))
    gx, = autograd.grad([x * x], [x])
    numpy.testing.assert_allclose(gx.array, 2 * x.array)


def test_backward_with_loss_scale():
    x = Variable(f32([1, 2]))
    F.sum(x * 2).backward(loss_scale=8)
    numpy.testing.assert_array_equal(x.grad, f32([16, 16]))


def test_backward_of_a_leaf_with_loss_scale_is_its_scaled_start():
    s = Variable(f32(1))
    s.backward(loss_scale=4)
    assert s.grad == 4
    # The same through chainer.backward, from a grad the leaf holds.
    s.grad = f32(3)
    autograd.backward([s], loss_scale=4)
    assert s.grad == 12


# -- retained data and memory --------------------------------------------


def test_retained_output_survives_dropping_the_output_variable():
    x = Variable(f32([0, 1]))
    y = F.exp(x)
    node = y.creator_node
    expected = y.array.copy()
    z = F.sum(y * 1)
    del y
    retained, = node.get_retained_outputs()
    numpy.testing.assert_array_equal(retained.array, expected)
    z.backward()
    numpy.testing.assert_allclose(x.grad, numpy.exp(x.array))


def test_graph_is_freed_when_variables_are_dropped():
    gc.collect()
    gc.disable()
    try:
        x = Variable(uniform(3))
        h = F.exp(x * 2)
        y = F.sum(h)
        node_ref = weakref.ref(h.node)
        function_ref = weakref.ref(h.creator_node)
        del h
        assert node_ref() is not None  # y's graph holds it
        del y
        assert node_ref() is None and function_ref() is None
    finally:
        gc.enable()


def test_leaves_sharing_a_gradient_get_distinct_arrays():
    a = Variable(f32([1, 2]))
    b = Variable(f32([3, 4]))
    y = a + b
    gy = f32([1, 1])
    y.grad = gy
    y.backward()
    assert a.grad is not b.grad and a.grad is not gy
    a.grad[0] = 100
    numpy.testing.assert_array_equal(b.grad, f32([1, 1]))
    numpy.testing.assert_array_equal(gy, f32([1, 1]))


# -- debug mode ---------------------------------------------------------


class NanBackward(FunctionNode):
    def forward(self, inputs):
        return inputs[0] * 1,

    def backward(self, indexes, grad_outputs):
        # On the array: a Variable product would be caught in its forward.
        return Variable(grad_outputs[0].array * numpy.float32('nan')),


def test_debug_mode_detects_nan_in_forward_and_backward():
    x = Variable(f32([-1]))
    with using_config('debug', True), numpy.errstate(invalid='ignore'):
        with pytest.raises(RuntimeError, match='NaN.*log'):
            F.log(x)
        y, = NanBackward().apply((x,))
        assert y.creator_node.stack is not None
        with pytest.raises(RuntimeError, match='NaN.*NanBackward'):
            y.backward()
    with numpy.errstate(invalid='ignore'):
        F.log(x)  # no check outside debug mode


# -- hooks on a node ----------------------------------------------------


def test_local_hooks_register_and_delete():
    node = MulAdd()
    hook = function_hooks.TimerHook()
    node.add_hook(hook)
    with pytest.raises(KeyError, match='TimerHook'):
        node.add_hook(function_hooks.TimerHook())
    node.add_hook(function_hooks.TimerHook(), name='second')
    assert set(node.local_function_hooks) == {'TimerHook', 'second'}
    node.delete_hook('second')
    with pytest.raises(KeyError, match='second'):
        node.delete_hook('second')
    with pytest.raises(TypeError, match='FunctionHook'):
        node.add_hook(object())
    node.apply((uniform(1), uniform(1), uniform(1)))
    assert len(hook.call_history) == 1


def test_gradients_of_a_0d_variable_are_0d_arrays():
    # NumPy sums 0-d arrays into scalars; gradients stay arrays.
    x = Variable(f32(5))
    (x * x + x * 3).backward()
    assert type(x.grad) is numpy.ndarray and x.grad == 13
    x.cleargrad()
    (x * x).backward(loss_scale=2)
    assert type(x.grad) is numpy.ndarray and x.grad == 20


# -- Chainer's conventions the engine keeps ------------------------------


def test_rank_is_one_more_than_the_highest_input_rank():
    x1, x2 = Variable(uniform(2)), Variable(uniform(2))
    assert x1.node is not None and x1.node.rank == 0
    y = x1 * 1 * 1 + x2  # x1 * 1 * 1 has rank 2
    assert y.rank == 3 and y.node.requires_grad
    y.unchain()
    assert y.rank == 3 and y.creator is None


def test_check_type_forward_set_on_the_instance_runs():
    calls = []

    class Double(FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

    f = Double()
    f.check_type_forward = calls.append
    f.apply((uniform(2), uniform(2)))
    in_types, = calls
    assert isinstance(in_types, type_check.LightTypeInfoTuple)
    assert len(in_types) == 2


def test_none_inputs_and_outputs():
    # Chainer's absent optional inputs, and outputs not computed.
    class Func(FunctionNode):
        def forward(self, inputs):
            self.retain_inputs((1, 2))
            self.retain_outputs((0, 1))
            return inputs[1] * 3, None

        def backward(self, indexes, grad_outputs):
            assert indexes == (1,)
            assert grad_outputs[1] is None
            x2, x3 = self.get_retained_inputs()
            assert x3 is None and x2 is not None
            assert self.get_retained_outputs()[1] is None
            return None, 3 * grad_outputs[0], None

    x = Variable(uniform(2))
    y, nothing = Func().apply((None, x, None))
    assert nothing.array is None
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.full(2, 3, 'f'))


def test_grad_inputs_flow_on_to_earlier_inputs():
    # x2 = 2 * x1: the grad_input of x2 reaches x1 too (as in Chainer).
    x1 = Variable(numpy.array(0.5, 'f'))
    x2 = x1 * 2
    y = x2 * 3
    gx1, gx2 = autograd.grad([y], [x1, x2], [Variable(numpy.array(1., 'f'))],
                             [Variable(numpy.array(1000., 'f')),
                              Variable(numpy.array(100., 'f'))])
    assert float(gx2.array) == 103 and float(gx1.array) == 1206


def test_grad_checks_its_sequences_and_takes_none_inputs():
    x = Variable(uniform(2, 3))
    y = x * x
    gy = Variable(uniform(2, 3))
    with pytest.raises(TypeError, match='grad_outputs'):
        autograd.grad([y], [x], gy)
    with pytest.raises(TypeError, match='grad_inputs'):
        autograd.grad([y], [x], [gy], gy)
    gx, nothing = autograd.grad([y], [x, None], [gy])
    assert nothing is None
    numpy.testing.assert_allclose(gx.array, 2 * x.array * gy.array)


def test_unchained_output_stops_gradients():
    x = Variable(numpy.arange(4, dtype='f').reshape(2, 2))
    h0, h1 = F.split_axis(x, [1], axis=0)
    w = F.sum(h0) + F.sum(h1)
    h0.unchain()
    gx, = autograd.grad([w], [x])
    numpy.testing.assert_array_equal(gx.array, [[0, 0], [1, 1]])


def _returns(result):
    class DummyFunc(FunctionNode):
        def forward(self, inputs):
            return numpy.array(1, numpy.float32),

        def backward(self, indexes, grad_outputs):
            return result
    return DummyFunc()


@pytest.mark.parametrize('result, error, message', [
    ((Variable(numpy.array([numpy.nan], 'f')),), RuntimeError,
     'NaN is detected on backward computation of DummyFunc'),
    ((Variable(uniform(1)), Variable(uniform(1))), ValueError,
     'number of gradients returned from backward is incorrect'),
    ((Variable(uniform(2)),), ValueError,
     'shape of gradients returned from backward is incorrect'),
    ((Variable(numpy.ones(1, numpy.int64)),), ValueError,
     'dtype of gradients returned from backward is incorrect'),
    (numpy.ones(1, numpy.float32), ValueError,
     'type of gradients returned from backward is incorrect'),
])
def test_debug_mode_checks_gradients(result, error, message):
    x = Variable(uniform(1))
    with using_config('debug', True):
        y, = _returns(result).apply((x,))
        with pytest.raises(error, match=message) as info:
            y.backward()
    # Where the function was applied (debug mode records it): this file.
    assert 'Stacktrace of the function is below' in str(info.value)
    assert __file__ in str(info.value)


def test_wrong_gradients_outside_debug_mode():
    x = Variable(uniform(1))
    y, = _returns((Variable(numpy.ones(1, numpy.int32)),)).apply((x,))
    with pytest.raises(TypeError, match='Dtype of data and grad mismatch'):
        y.backward()
    y, = _returns((Variable(uniform(2)),)).apply((x,))
    with pytest.raises(ValueError, match='Shape of data and grad mismatch'):
        y.backward()


def test_non_scalar_output_without_grad_and_nothing_to_reach():
    x = Variable(uniform(3), requires_grad=False)
    y = x * 2
    y.backward()  # nothing to compute, as in Chainer
    z = Variable(uniform(3)) * 2
    with pytest.raises(ValueError, match='set its grad'):
        z.backward()


class Scaled(FunctionNode):
    """y = x * c with the output retained; its array-level backward counts
    its calls and reads the retained output."""

    array_calls = 0

    def __init__(self, c):
        self.c = c

    def forward(self, inputs):
        self.retain_outputs((0,))
        return inputs[0] * self.c,

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * (y / y) * self.c,

    def array_backward(self, indexes, grad_outputs, inputs, outputs):
        type(self).array_calls += 1
        assert inputs == (None,) and outputs[0] is not None
        return grad_outputs[0] * (outputs[0] / outputs[0]) * self.c,


@pytest.mark.parametrize('double, hooked, array_level', [
    (False, False, True), (True, False, False), (False, True, False)])
def test_backward_runs_the_array_level_backward_without_a_graph(
        double, hooked, array_level):
    # A backward that records no graph runs a node's array-level backward
    # where it has one; recording one, or with hooks, it runs backward.
    x = Variable(f32([1, 2, 3]))
    Scaled.array_calls = 0
    y, = Scaled(f32(3)).apply((x,))
    with function_hooks.TimerHook() if hooked else using_config(
            'debug', False):
        F.sum(y * y).backward(enable_double_backprop=double)
    assert Scaled.array_calls == int(array_level)
    numpy.testing.assert_array_equal(x.grad, 18 * x.array)
    if double:
        assert x.grad_var.creator_node is not None


def test_a_subclass_overriding_backward_does_not_inherit_array_backward():
    class Doubled(Scaled):
        def backward(self, indexes, grad_outputs):
            return grad_outputs[0] * self.c * 2,

    class Again(Scaled):
        pass

    assert Scaled._has_array_backward and Again._has_array_backward
    assert not Doubled._has_array_backward
    x = Variable(f32([1, 2]))
    y, = Doubled(f32(3)).apply((x,))
    y.grad = f32([1, 1])
    y.backward()
    numpy.testing.assert_array_equal(x.grad, f32([6, 6]))


# -- remembered type checks ---------------------------------------------


class Scale(FunctionNode):
    """y = x * factor for float x of at most ``max_ndim`` axes; counts the
    type checks it runs."""

    type_check_attributes = ('max_ndim',)
    checks = 0

    def __init__(self, factor=2, max_ndim=2):
        self.factor = factor
        self.max_ndim = max_ndim

    def check_type_forward(self, in_types):
        type(self).checks += 1
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f',
                          in_types[0].ndim <= self.max_ndim)

    def forward(self, inputs):
        return inputs[0] * self.factor,


def checks_run(node_class, calls):
    """How many type checks ``calls`` (node instance, input array) run."""
    node_class.checks = 0
    for node, x in calls:
        node.apply((Variable(x),))
    return node_class.checks


def test_a_passing_type_check_is_remembered_per_shape_dtype_and_attributes():
    Scale._passed_type_checks.clear()
    assert checks_run(Scale, [(Scale(), uniform(2)), (Scale(3), uniform(2)),
                              (Scale(), uniform(2))]) == 1
    # Another shape, dtype or value of a declared attribute: checked.
    assert checks_run(Scale, [
        (Scale(), uniform(3)), (Scale(), uniform(2).astype(numpy.float64)),
        (Scale(max_ndim=3), uniform(2)), (Scale(), uniform(3))]) == 3


def test_a_remembered_type_check_still_refuses_bad_inputs():
    Scale._passed_type_checks.clear()
    Scale().apply((uniform(2, 2),))
    with pytest.raises(type_check.InvalidType, match='ndim'):
        Scale(max_ndim=1).apply((Variable(uniform(2, 2)),))
    with pytest.raises(type_check.InvalidType, match='kind'):
        Scale().apply((Variable(numpy.ones((2, 2), numpy.int32)),))
    with pytest.raises(type_check.InvalidType, match=r'_ \* _'):
        F.math.basic_math.Mul().apply(
            (Variable(uniform(2)), uniform(2).astype(numpy.float64)))
    for _ in range(2):  # (the second time with a remembered pass of x * x)
        x = Variable(uniform(2))
        with pytest.raises(type_check.InvalidType, match='broadcast'):
            x * x * Variable(uniform(3))


def test_only_declared_checks_are_remembered():
    class Rescale(Scale):  # its own check, not declared
        def check_type_forward(self, in_types):
            super().check_type_forward(in_types)

    class Again(Scale):  # Scale's check and declaration
        pass

    assert Rescale._passed_type_checks is None
    assert Again._passed_type_checks is not None
    assert checks_run(Rescale, [(Rescale(), uniform(2))] * 2) == 2
    assert checks_run(Again, [(Again(), uniform(2))] * 2) == 1
    # A check set on the instance, an absent optional input, an attribute
    # value that is no key: checked every time.
    calls = []
    node = Scale()
    node.check_type_forward = calls.append
    node.apply((uniform(2),))
    node = Scale()
    node.check_type_forward = calls.append
    node.apply((uniform(2),))
    assert len(calls) == 2
    assert checks_run(Scale, [(Scale(max_ndim=numpy.array(2)), uniform(2))]
                      * 2) == 2
    calls.clear()

    class Optional(FunctionNode):
        type_check_attributes = ()

        def check_type_forward(self, in_types):
            calls.append(len(in_types))

        def forward(self, inputs):
            return inputs[0] * 2,

    for _ in range(2):
        Optional().apply((Variable(uniform(2)), None))
    assert calls == [2, 2]


def test_remembered_type_checks_are_bounded(monkeypatch):
    from kusari.autograd import function_node
    monkeypatch.setattr(function_node, '_PASSED_TYPE_CHECKS_KEPT', 3)
    Scale._passed_type_checks.clear()
    checks_run(Scale, [(Scale(), uniform(n)) for n in range(1, 8)])
    assert 1 <= len(Scale._passed_type_checks) <= 3


def test_a_check_patched_onto_the_class_later_runs_every_time(monkeypatch):
    # (As mock.patch.object(SomeNode, 'check_type_forward') does.)
    Scale._passed_type_checks.clear()
    calls = []
    monkeypatch.setattr(Scale, 'check_type_forward',
                        lambda self, in_types: calls.append(len(in_types)))
    for _ in range(2):
        Scale().apply((Variable(uniform(2)),))
    assert calls == [1, 1]
