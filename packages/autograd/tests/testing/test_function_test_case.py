import unittest

import numpy
import pytest

from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd import functions as F
from kusari.autograd import testing

CPU = [{}]


class Square(function_node.FunctionNode):
    """y = x ** 2, with a backward that is wrong when ``factor`` is not 2."""

    def __init__(self, factor=2):
        self.factor = factor

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return backend.get_array_module(x).asarray(x * x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * x * self.factor,


def run(module, base, test_name='test_backward', params=CPU):
    """Run one injected test of ``base`` on the CPU; return the result."""
    base.__module__ = module.__name__
    cls, = testing.inject_backend_tests(None, params)(base).classes
    result = unittest.TestResult()
    cls(test_name).run(result)
    return result


def failure(result):
    (_, traceback), = result.failures
    return traceback


class SquareTest(testing.FunctionTestCase):
    factor = 2
    dtype = numpy.float32

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (3, 2)).astype(self.dtype),

    def forward(self, inputs, device):
        return Square(self.factor).apply(inputs)

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.asarray(x * x),


@pytest.mark.parametrize('test_name', [
    'test_forward', 'test_backward', 'test_double_backward'])
def test_a_correct_function_passes(module, test_name):
    class TestSquare(SquareTest):
        pass
    result = run(module, TestSquare, test_name)
    assert result.wasSuccessful(), result.failures + result.errors


def test_library_function_passes(module):
    class TestTanh(testing.FunctionTestCase):
        def setUp(self):
            self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

        def generate_inputs(self):
            return numpy.random.uniform(-2, 2, (2, 3)).astype(numpy.float64),

        def forward(self, inputs, device):
            return F.tanh(*inputs),

        def forward_expected(self, inputs):
            return numpy.tanh(*inputs),
    for name in ('test_forward', 'test_backward', 'test_double_backward'):
        assert run(module, TestTanh, name).wasSuccessful()


def test_wrong_backward_fails(module):
    class TestWrong(SquareTest):
        factor = 3
    assert run(module, TestWrong, 'test_forward').wasSuccessful()
    message = failure(run(module, TestWrong, 'test_backward'))
    assert 'FunctionTestError: backward is not implemented correctly' \
        in message
    assert '(caused by)\nAssertionError' in message


def test_wrong_values_fail_with_the_details(module):
    class TestWrong(SquareTest):
        def forward_expected(self, inputs):
            return inputs[0] * 3,
    message = failure(run(module, TestWrong, 'test_forward'))
    assert ('Outputs of forward() do not match the expected values.\n'
            'Indices of outputs that do not match: 0\n'
            'Expected shapes and dtypes: (3, 2):float32\n'
            'Actual shapes and dtypes:   (3, 2):float32\n') in message
    assert 'Error details of output [0]:' in message
    assert 'assert_allclose failed' in message


@pytest.mark.parametrize('expected, match', [
    (lambda x: (x.astype(numpy.float64),),
     'Shapes and/or dtypes of forward() do not match\n'
     'Expected shapes and dtypes: (3, 2):float64\n'
     'Actual shapes and dtypes:   (3, 2):float32'),
    (lambda x: (x, x),
     # (actual, expected), as in Chainer
     'Number of outputs of forward() (1, 2) does not match'),
])
def test_mismatched_outputs_fail(module, expected, match):
    class TestWrong(SquareTest):
        def forward_expected(self, inputs):
            return expected(inputs[0])
    assert match in failure(run(module, TestWrong, 'test_forward'))


def test_outputs_must_be_variables(module):
    class TestArrays(SquareTest):
        def forward(self, inputs, device):
            return inputs[0].array * inputs[0].array,
    assert ('forward() must return a tuple of Variables.\nActual: ndarray'
            in failure(run(module, TestArrays, 'test_forward')))


def test_inputs_modified_in_forward_fail(module):
    class TestInPlace(SquareTest):
        def forward(self, inputs, device):
            x = inputs[0]
            x.array *= 2
            return Square().apply((x,))

        def forward_expected(self, inputs):
            return (2 * inputs[0]) ** 2,
    message = failure(run(module, TestInPlace, 'test_forward'))
    assert ('Input arrays have been modified during forward.\n'
            'Indices of modified inputs: 0\n') in message


@pytest.mark.parametrize('contiguous, shape, expected', [
    (None, (3, 2), False), ('C', (3, 2), True), (None, (), True)])
def test_contiguity_of_the_inputs(module, contiguous, shape, expected):
    seen = []

    class TestLayout(SquareTest):
        def generate_inputs(self):
            return numpy.ones(shape, dtype=numpy.float32),

        def forward(self, inputs, device):
            seen.append(inputs[0].array.flags.c_contiguous)
            return super().forward(inputs, device)
    TestLayout.contiguous = contiguous
    assert run(module, TestLayout, 'test_forward').wasSuccessful()
    assert seen == [expected]


@pytest.mark.parametrize('test_name', [
    'test_forward', 'test_backward', 'test_double_backward'])
def test_skip_flags(module, test_name):
    class TestSkipped(SquareTest):
        pass
    flag = f'skip_{test_name[5:]}_test'
    setattr(TestSkipped, flag, True)
    result = run(module, TestSkipped, test_name)
    assert result.skipped[0][1] == f'{flag} is set'


def test_before_test_sees_the_test_name_and_config(module):
    seen = []

    class TestHook(SquareTest):
        def before_test(self, test_name):
            seen.append((test_name, self.backend_config.xp))
    run(module, TestHook, 'test_double_backward')
    assert seen == [('test_double_backward', numpy)]


def test_dodge_nondifferentiable_draws_new_inputs(module):
    drawn = []

    class TestAbsolute(testing.FunctionTestCase):
        dodge_nondifferentiable = True

        def generate_inputs(self):
            drawn.append(None)
            value = 0.0 if len(drawn) < 3 else 0.5
            return numpy.full((2,), value, dtype=numpy.float64),

        def forward(self, inputs, device):
            return F.absolute(*inputs),

        def forward_expected(self, inputs):
            return numpy.abs(*inputs),
    assert run(module, TestAbsolute).wasSuccessful()
    assert len(drawn) == 3


def test_generated_data_must_be_a_tuple_of_numpy_arrays(module):
    class TestList(SquareTest):
        def generate_inputs(self):
            return [numpy.ones(2, dtype=numpy.float32)]
    (_, traceback), = run(module, TestList, 'test_forward').errors
    assert 'TypeError: generate_inputs() must return a tuple, not list' \
        in traceback


def test_gpu_variant_skips(module, monkeypatch):
    monkeypatch.setenv('CHAINER_TEST_GPU_LIMIT', '0')

    class TestSquare(SquareTest):
        pass
    result = run(module, TestSquare, 'test_forward', [{'use_cuda': True}])
    assert result.skipped[0][1] == (
        '1 GPU(s) required, but CHAINER_TEST_GPU_LIMIT=0')
