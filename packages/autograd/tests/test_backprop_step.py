"""backprop_step: one function's step of a backward pass, with the
gradients as lists per input node (Chainer's ``_backprop_utils``)."""
import numpy as np
import pytest

from kusari.array import using_config
from kusari.autograd import FunctionNode, Variable
from kusari.autograd import backprop_step
from kusari.autograd.backprop_step import _reduce


class Twice(FunctionNode):
    def forward(self, inputs):
        return inputs[0] * 2, inputs[1] * 2

    def backward(self, indexes, grad_outputs):
        return tuple(2 * gy for gy in grad_outputs)


class TwiceAccumulating(Twice):
    def backward_accumulate(self, indexes, grad_outputs, grad_inputs):
        assert all(g is None or len(g.shape) == 1 for g in grad_inputs)
        return super().backward_accumulate(indexes, grad_outputs,
                                           grad_inputs)


@pytest.mark.parametrize('function', [Twice, TwiceAccumulating])
@pytest.mark.parametrize('lazy', [False, True])
def test_backprop_step_adds_to_the_lists(function, lazy):
    a = Variable(np.ones(3, 'f'))
    b = Variable(np.ones(3, 'f'))
    f = function()
    f.apply((a, b))
    before = Variable(np.full(3, 5, 'f'))
    grad_inputs = {a.node: [before], b.node: []}
    gys = tuple(Variable(np.ones(3, 'f')) for _ in range(2))
    with using_config('lazy_grad_sum', lazy):
        backprop_step.backprop_step(f, (0, 1), gys, grad_inputs, True)
    if not lazy:
        assert all(len(g) == 1 for g in grad_inputs.values())
    np.testing.assert_array_equal(
        _reduce(grad_inputs[a.node]).array, [7, 7, 7])
    np.testing.assert_array_equal(
        _reduce(grad_inputs[b.node]).array, [2, 2, 2])
    assert _reduce([]) is None


def test_backprop_step_checks_in_debug_mode():
    class Wrong(Twice):
        def backward(self, indexes, grad_outputs):
            return Variable(np.ones(2, 'f')), None

    a = Variable(np.ones(3, 'f'))
    f = Wrong()
    f.apply((a, a))
    grad_inputs = {a.node: []}
    gy = Variable(np.ones(3, 'f'))
    with pytest.raises(ValueError, match='shape of gradients'):
        backprop_step.backprop_step(f, (0, 1), (gy, gy), grad_inputs,
                                      True)
