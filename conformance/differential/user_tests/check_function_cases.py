"""User-style ``FunctionTestCase`` and ``unary_math_function_unittest``
tests: passing ones, and a wrong backward that must fail."""
import unittest

import numpy

import chainer
from chainer import functions as F
from chainer import testing

import _record

CPU = [{}, {'use_cuda': True}]


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'dtype': [numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, CPU)
class TestReLU(testing.FunctionTestCase):

    dodge_nondifferentiable = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.asarray(numpy.random.uniform(-1, 1, self.shape),
                             self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.relu(x),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.asarray(numpy.maximum(x, 0), self.dtype),


@testing.parameterize(*testing.product({'nobias': [False, True]}))
@testing.inject_backend_tests(None, [{}])
class TestLinear(testing.FunctionTestCase):

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32)
        W = numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32)
        if self.nobias:
            return x, W
        b = numpy.random.uniform(-1, 1, 2).astype(numpy.float32)
        return x, W, b

    def forward(self, inputs, device):
        return F.linear(*inputs),

    def forward_expected(self, inputs):
        y = inputs[0].dot(inputs[1].T)
        if not self.nobias:
            y = y + inputs[2]
        return y.astype(numpy.float32),


@testing.inject_backend_tests(None, [{}])
class TestNoDoubleBackward(testing.FunctionTestCase):

    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.random.uniform(0.5, 1, (2, 2)).astype(numpy.float32),

    def forward(self, inputs, device):
        return F.log(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.log(inputs[0]),


@testing.inject_backend_tests(None, [{}])
class TestMultipleOutputs(testing.FunctionTestCase):

    skip_forward_test = False

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32),

    def forward(self, inputs, device):
        return F.split_axis(inputs[0], 2, 0)

    def forward_expected(self, inputs):
        return tuple(numpy.split(inputs[0], 2, 0))


class _WrongSquare(chainer.FunctionNode):

    def forward(self, inputs):
        self.retain_inputs((0,))
        return inputs[0] ** 2,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return 3 * x * grad_outputs[0],  # should be 2 * x


@testing.inject_backend_tests(None, [{}])
class TestWrongBackward(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(0.5, 1, (3,)).astype(numpy.float64),

    def forward(self, inputs, device):
        return _WrongSquare().apply(inputs)

    def forward_expected(self, inputs):
        return inputs[0] ** 2,


class _ForwardOnly(testing.FunctionTestCase):
    """F.identity on ones; subclasses expect something else."""

    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.ones((2,), numpy.float32),

    def forward(self, inputs, device):
        return F.identity(inputs[0]),


@testing.inject_backend_tests(None, [{}])
class TestWrongForward(_ForwardOnly):

    def forward_expected(self, inputs):
        return inputs[0] * 2,


@testing.inject_backend_tests(None, [{}])
class TestWrongDtype(_ForwardOnly):

    def forward_expected(self, inputs):
        return inputs[0].astype(numpy.float64),


@testing.unary_math_function_unittest(F.exp)
class TestExp(unittest.TestCase):
    pass


@testing.unary_math_function_unittest(
    F.log, make_data=lambda shape, dtype: tuple(
        numpy.asarray(numpy.random.uniform(low, 2, shape), dtype)
        for low in (0.5, -1, -1)))
class TestLog(unittest.TestCase):
    pass


class _Square(testing.FunctionTestCase):
    """x ** 2 on float32 (3, 2) inputs; subclasses change one thing."""

    def generate_inputs(self):
        return numpy.random.uniform(0.5, 1, (3, 2)).astype(numpy.float32),

    def forward(self, inputs, device):
        return inputs[0] * inputs[0],

    def forward_expected(self, inputs):
        return inputs[0] * inputs[0],


@testing.parameterize(*testing.product({'contiguous': [None, 'C']}))
@testing.inject_backend_tests(None, [{}])
class TestContiguous(_Square):

    def before_test(self, test_name):
        _record.add('before_test', [test_name, self.contiguous])
        self.test_name = test_name

    def forward(self, inputs, device):
        x, = inputs
        _record.add(f'contiguity_{self.test_name}', [
            self.contiguous, bool(x.array.flags.c_contiguous)])
        return x * x,


@testing.inject_backend_tests(None, [{}])
class TestGradOutputs(_Square):

    def generate_grad_outputs(self, outputs_template):
        _record.add('grad_template', [[str(o.dtype), list(o.shape)]
                                      for o in outputs_template])
        return tuple(numpy.full_like(o, 2) for o in outputs_template)

    def generate_grad_grad_inputs(self, inputs_template):
        return tuple(numpy.full_like(i, 3) for i in inputs_template)


@testing.inject_backend_tests(None, [{}])
class TestLooseOptions(_Square):

    check_forward_options = {'atol': 1e-1, 'rtol': 1e-1}

    def forward_expected(self, inputs):
        return inputs[0] * inputs[0] + 0.01,


@testing.inject_backend_tests(None, [{}])
class TestTooManyExpected(_Square):

    def forward_expected(self, inputs):
        return inputs[0] * inputs[0], inputs[0]


@testing.inject_backend_tests(None, [{}])
class TestWrongShape(_Square):

    def forward_expected(self, inputs):
        return (inputs[0] * inputs[0]).T,


@testing.inject_backend_tests(None, [{}])
class TestForwardReturnsVariableNotTuple(_Square):

    def forward(self, inputs, device):
        return inputs[0] * inputs[0]


@testing.inject_backend_tests(None, [{}])
class TestForwardReturnsArrays(_Square):

    def forward(self, inputs, device):
        return inputs[0].array * inputs[0].array,


@testing.inject_backend_tests(None, [{}])
class TestInputsNotTuple(_Square):

    def generate_inputs(self):
        return numpy.ones((3, 2), numpy.float32)


@testing.inject_backend_tests(None, [{}])
class TestIntegerInput(testing.FunctionTestCase):

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32)
        return x, numpy.array([0, 2, 1, 2], numpy.int32)

    def forward(self, inputs, device):
        return F.select_item(*inputs),

    def forward_expected(self, inputs):
        x, t = inputs
        return x[numpy.arange(4), t],


class _Abs(testing.FunctionTestCase):

    def generate_inputs(self):
        x = numpy.array([-0.5, 1e-4, 0.3, -1e-4], numpy.float64)
        return x,

    def forward(self, inputs, device):
        return F.absolute(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.abs(inputs[0]),


@testing.fix_random()
@testing.inject_backend_tests(None, [{}])
class TestNondifferentiableAbs(_Abs):

    dodge_nondifferentiable = True

    def forward(self, inputs, device):
        _record.add('dodged', inputs[0].array.tolist())
        return F.absolute(inputs[0]),


@testing.fix_random()
@testing.inject_backend_tests(None, [{}])
class TestNondifferentiableNotDodged(_Abs):
    pass


@testing.unary_math_function_unittest(
    F.sin, func_expected=numpy.sin,
    is_linear=False, forward_options={'atol': 1e-4},
    backward_options={'eps': 1e-3}, double_backward_options={'atol': 1e-3})
class TestSinOptions(unittest.TestCase):
    pass


@testing.unary_math_function_unittest(
    F.identity, func_expected=lambda x, dtype: x.astype(dtype),
    is_linear=True)
class TestLinearIdentity(unittest.TestCase):
    pass


@testing.unary_math_function_unittest(F.exp, func_expected=numpy.log)
class TestExpWrongExpected(unittest.TestCase):
    pass
