"""LinkTestCase and LinkInitializersTestCase catch what they should."""
import unittest

import numpy
import pytest

from kusari.array import initializers
from kusari.autograd.testing import FunctionTestError
from kusari.autograd import functions as F
from kusari.autograd.testing import BackendConfig
from kusari.links import testing
from links_fakes import Linear

CPU = BackendConfig({})


class LinearTest(testing.LinkTestCase):
    param_names = ('W', 'b')
    in_size = 2

    def before_test(self, test_name):
        # check_backward perturbs parameters in their own dtype (float32),
        # which limits the finite differences to about 1e-4.
        self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_params(self):
        return (numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32),
                numpy.random.uniform(-1, 1, (3,)).astype(numpy.float32))

    def create_link(self, initializers):
        initialW, initial_bias = initializers
        return Linear(self.in_size, 3, initialW=initialW,
                      initial_bias=initial_bias)

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (4, 2)).astype(numpy.float32),

    def forward_expected(self, link, inputs):
        x, = inputs
        return x.dot(link.W.array.T) + link.b.array,


class BrokenLinear(Linear):
    """Forward right, but the gradient of b is cut off."""

    def forward(self, x):
        return F.matmul(x, self.W, transb=True) + self.b.array


def run(case_class, method):
    case = case_class(method)
    getattr(case, method)(CPU)


def test_correct_link_passes():
    run(LinearTest, 'test_forward')
    run(LinearTest, 'test_backward')


def test_lazy_link_is_initialized_by_a_first_forward():
    class Lazy(LinearTest):
        in_size = None
    run(Lazy, 'test_forward')
    run(Lazy, 'test_backward')


def test_wrong_forward_fails():
    class Wrong(LinearTest):
        def forward_expected(self, link, inputs):
            return super().forward_expected(link, inputs)[0] + 1,
    with pytest.raises(testing.LinkTestError, match='do not match'):
        run(Wrong, 'test_forward')
    assert issubclass(testing.LinkTestError, FunctionTestError)


def test_param_names_must_name_parameters():
    class Misnamed(LinearTest):
        param_names = ('W', 'c')
    with pytest.raises(testing.LinkTestError,
                       match="does not have a parameter named 'c'"):
        run(Misnamed, 'test_backward')


def test_missing_parameter_gradient_fails():
    class Broken(LinearTest):
        def create_link(self, initializers):
            link = BrokenLinear(2, 3)
            link.copyparams(super().create_link(initializers))
            return link
    run(Broken, 'test_forward')
    with pytest.raises(FunctionTestError, match='backward'):
        run(Broken, 'test_backward')


def test_create_link_must_return_a_link():
    class NotALink(LinearTest):
        def create_link(self, initializers):
            return lambda x: x
    with pytest.raises(TypeError, match='must return a Link'):
        run(NotALink, 'test_forward')


def test_skip_flags():
    class Skipped(LinearTest):
        skip_backward_test = True
    with pytest.raises(unittest.SkipTest):
        run(Skipped, 'test_backward')


class LinearInitializersTest(testing.LinkInitializersTestCase):
    param_names = ('W', 'b')

    def generate_params(self):
        return initializers.Constant(0.5), initializers.Constant(2.)

    def create_link(self, initializers):
        initialW, initial_bias = initializers
        return Linear(None, 3, initialW=initialW, initial_bias=initial_bias)

    def generate_inputs(self):
        return numpy.ones((1, 2), numpy.float32),

    def get_initializers(self):
        return ((initializers.Constant(1.), 3.,
                 numpy.full((3, 2), 4, numpy.float32)),
                (testing.InitializerArgument(None, 0.),
                 initializers.One()))


def test_initializers_pass():
    class Defaults(LinearInitializersTest):
        def create_link(self, inits):
            initialW, initial_bias = inits
            return Linear(None, 3, initialW=initialW,
                          initial_bias=0 if initial_bias is None
                          else initial_bias)
    run(Defaults, 'test_initializers')


def test_initializer_ignored_fails():
    class Ignoring(LinearInitializersTest):
        def create_link(self, inits):
            return Linear(None, 3, initialW=0.5, initial_bias=inits[1])
    with pytest.raises(testing.LinkTestError, match="'W' is not filled"):
        run(Ignoring, 'test_initializers')
