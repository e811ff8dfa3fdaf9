"""Modules of the ``chainer`` package itself: ``_backprop_utils`` (Chainer's
one-function backprop step, with the gradients as lists per input node),
``utils.experimental`` and ``_runtime_info``."""
import numpy as np
import pytest

import chainer
from chainer import _backprop_utils


class Twice(chainer.FunctionNode):
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
    a = chainer.Variable(np.ones(3, 'f'))
    b = chainer.Variable(np.ones(3, 'f'))
    f = function()
    f.apply((a, b))
    before = chainer.Variable(np.full(3, 5, 'f'))
    grad_inputs = {a.node: [before], b.node: []}
    gys = tuple(chainer.Variable(np.ones(3, 'f')) for _ in range(2))
    with chainer.using_config('lazy_grad_sum', lazy):
        _backprop_utils.backprop_step(f, (0, 1), gys, grad_inputs, True)
    if not lazy:
        assert all(len(g) == 1 for g in grad_inputs.values())
    np.testing.assert_array_equal(
        _backprop_utils._reduce(grad_inputs[a.node]).array, [7, 7, 7])
    np.testing.assert_array_equal(
        _backprop_utils._reduce(grad_inputs[b.node]).array, [2, 2, 2])
    assert _backprop_utils._reduce([]) is None


def test_backprop_step_checks_in_debug_mode():
    class Wrong(Twice):
        def backward(self, indexes, grad_outputs):
            return chainer.Variable(np.ones(2, 'f')), None

    a = chainer.Variable(np.ones(3, 'f'))
    f = Wrong()
    f.apply((a, a))
    grad_inputs = {a.node: []}
    gy = chainer.Variable(np.ones(3, 'f'))
    with pytest.raises(ValueError, match='shape of gradients'):
        _backprop_utils.backprop_step(f, (0, 1), (gy, gy), grad_inputs,
                                      True)


def test_experimental_warning_can_be_disabled():
    import warnings
    from chainer import utils
    original = chainer.disable_experimental_feature_warning
    try:
        for disabled, count in ((False, 1), (True, 0)):
            chainer.disable_experimental_feature_warning = disabled
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter('always')
                utils.experimental('f')
            assert len(caught) == count
    finally:
        chainer.disable_experimental_feature_warning = original


def test_runtime_info():
    import io
    from chainer import _runtime_info
    out = io.StringIO()
    chainer.print_runtime_info(out)
    assert out.getvalue() == str(_runtime_info._get_runtime_info())
    assert 'Chainer: 7.8.1' in out.getvalue()


def test_array_types_size_of_shape_and_tempdir():
    import os
    assert isinstance(np.zeros(2), chainer.get_array_types())
    assert chainer.utils.size_of_shape((2, 3)) == 6
    assert chainer.utils.size_of_shape(()) == 1
    assert type(chainer.utils.size_of_shape((np.int64(2),))) is int
    with chainer.utils.tempdir(prefix='kusari') as path:
        assert os.path.basename(path).startswith('kusari')
        open(os.path.join(path, 'file'), 'w').close()
    assert not os.path.exists(path)
