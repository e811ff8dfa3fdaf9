import unittest

import numpy
import pytest

from kusari.array import backend
from kusari.autograd import function
from kusari.autograd import function_node
from kusari.autograd import functions as F
from kusari.autograd import testing


class Square(function_node.FunctionNode):
    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return backend.get_array_module(x).asarray(x * x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return 2 * x * grad_outputs[0],


def square(x):
    return Square().apply((x,))[0]


class OldExp(function.Function):
    """An old-style Function, labelled as in Chainer's own ones."""

    label = 'exp'

    def forward(self, inputs):
        self.retain_outputs((0,))
        return numpy.asarray(numpy.exp(inputs[0])),

    def backward(self, inputs, grad_outputs):
        y, = self.output_data
        return numpy.asarray(grad_outputs[0] * y),


def run_all(bundle):
    """Run every generated class; return {class name: TestResult}."""
    results = {}
    for cls in bundle.classes:
        result = unittest.TestResult()
        unittest.defaultTestLoader.loadTestsFromTestCase(cls).run(result)
        results[cls.__name__] = result
    return results


def make_case(module):
    return type('TestFunc', (unittest.TestCase,),
                {'__module__': module.__name__})


def positive_data(shape, dtype):
    return tuple(numpy.random.uniform(low, 2, shape).astype(dtype)
                 for low in (0.5, -1, -1))


@pytest.mark.parametrize('func, make_data', [
    (square, None), (F.exp, None), (F.tanh, None), (F.log, positive_data)])
def test_a_correct_function_passes_everywhere_on_cpu(module, func,
                                                     make_data):
    results = run_all(testing.unary_math_function_unittest(
        func, make_data=make_data)(make_case(module)))
    assert sorted(results) == [
        'TestFunc_param_0_{dtype=float16, shape=(3, 2)}',
        'TestFunc_param_1_{dtype=float16, shape=()}',
        'TestFunc_param_2_{dtype=float32, shape=(3, 2)}',
        'TestFunc_param_3_{dtype=float32, shape=()}',
        'TestFunc_param_4_{dtype=float64, shape=(3, 2)}',
        'TestFunc_param_5_{dtype=float64, shape=()}',
    ]
    for result in results.values():
        assert result.wasSuccessful(), result.failures + result.errors
        assert result.testsRun == 6
        assert len(result.skipped) == 3  # the GPU tests


@pytest.mark.parametrize('label_expected, label_failures', [
    ('exp', 0), (None, 1)])  # by default the class name in lower case
def test_old_style_function_has_its_label_tested(module, label_expected,
                                                 label_failures):
    results = run_all(testing.unary_math_function_unittest(
        OldExp(), func_expected=numpy.exp, label_expected=label_expected)(
            make_case(module)))
    for result in results.values():
        assert result.testsRun == 5  # no double backward
        assert not result.errors
        assert [case._testMethodName for case, _ in result.failures] == [
            'test_label'] * label_failures


def test_wrong_expected_function_fails_forward_only(module):
    results = run_all(testing.unary_math_function_unittest(
        square, func_expected=numpy.cbrt)(make_case(module)))
    for result in results.values():
        failed = sorted(case._testMethodName for case, _ in result.failures)
        assert failed == ['test_forward_cpu']


def test_options_update_the_defaults(module):
    results = run_all(testing.unary_math_function_unittest(
        square, func_expected=lambda x, dtype: numpy.square(x) + 0.5,
        forward_options={'atol': 1}, backward_options={'eps': 1e-4})(
            make_case(module)))
    assert all(r.wasSuccessful() for r in results.values())


def test_is_linear_is_deprecated_and_still_tested(module):
    with testing.assert_warns(DeprecationWarning):
        decorator = testing.unary_math_function_unittest(
            F.identity, func_expected=lambda x, dtype: x, is_linear=True)
    results = run_all(decorator(make_case(module)))
    assert all(r.wasSuccessful() for r in results.values())


def test_rejects_what_it_cannot_test():
    def no_such_numpy_function(x):
        return x
    with pytest.raises(ValueError, match="NumPy has no function "
                       "'no_such_numpy_function'"):
        testing.unary_math_function_unittest(no_such_numpy_function)
    with pytest.raises(ValueError, match='label_expected applies only'):
        testing.unary_math_function_unittest(F.exp, label_expected='exp')
    with pytest.raises(TypeError, match='unittest.TestCase subclass'):
        testing.unary_math_function_unittest(F.exp)(object)
