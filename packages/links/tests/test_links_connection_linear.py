"""Linear: forward and gradients against NumPy, lazy in_size, batch axes,
initializers, from_params, and bad input."""
import numpy
import pytest

from kusari.array import initializers
from kusari.autograd import Variable
from kusari.autograd import testing as autograd_testing
from kusari.autograd.functions.connection.linear import LinearFunction
from kusari.links import layers as L
from kusari.links import testing

import connection_reference as ref

BACKENDS = [{}, {'use_cuda': True}]


@autograd_testing.parameterize(*autograd_testing.product_dict(
    [{'x_shape': (4, 3), 'n_batch_axes': 1},
     {'x_shape': (2, 3, 2), 'n_batch_axes': 1},
     {'x_shape': (2, 3, 2), 'n_batch_axes': 2}],
    autograd_testing.product({'lazy': [False, True],
                              'nobias': [False, True]})))
@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestLinear(ref.ConnectionLinkTest):

    def before_test(self, test_name):
        super().before_test(test_name)
        self.param_names = ('W',) if self.nobias else ('W', 'b')

    @property
    def sizes(self):
        in_size = numpy.prod(self.x_shape[self.n_batch_axes:])
        return int(in_size), 5

    def generate_params(self):
        in_size, out_size = self.sizes
        return ref.uniform(out_size, in_size), ref.uniform(out_size)

    def create_link(self, initializers):
        initialW, initial_bias = initializers
        in_size, out_size = self.sizes
        if self.lazy:
            return L.Linear(out_size, nobias=self.nobias,
                            initialW=initialW, initial_bias=initial_bias)
        return L.Linear(in_size, out_size, self.nobias, initialW,
                        initial_bias)

    def generate_inputs(self):
        return ref.uniform(*self.x_shape),

    def forward(self, link, inputs, device):
        x, = inputs
        return link(x, n_batch_axes=self.n_batch_axes),

    def forward_expected(self, link, inputs):
        x, = inputs
        batch = x.shape[:self.n_batch_axes]
        y = x.reshape(batch + (-1,)).astype(numpy.float64) @ \
            link.W.array.T.astype(numpy.float64)
        if not self.nobias:
            y = y + link.b.array
        return y.astype(numpy.float32),


@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestLinearInitializers(testing.LinkInitializersTestCase):
    param_names = ('W', 'b')

    def generate_params(self):
        return initializers.Constant(0.5), initializers.Constant(2.)

    def create_link(self, inits):
        initialW, initial_bias = inits
        return L.Linear(None, 3, initialW=initialW, initial_bias=initial_bias)

    def generate_inputs(self):
        return numpy.ones((1, 2), numpy.float32),

    def get_initializers(self):
        return ((initializers.Constant(1.), 3.,
                 numpy.full((3, 2), 4, numpy.float32)),
                (testing.InitializerArgument(None, 0.), initializers.One(),
                 numpy.arange(3, dtype=numpy.float32)))


def test_short_form_is_lazy_until_the_first_call():
    link = L.Linear(2)
    assert link.in_size is None and link.out_size == 2
    assert link.W.array is None
    assert link.b.shape == (2,)
    link(numpy.ones((4, 3, 2), numpy.float32))
    assert link.W.shape == (2, 6)
    assert link.in_size == 6


def test_array_initializer_is_copied_into_the_configured_dtype():
    W = numpy.arange(6, dtype=numpy.float64).reshape(2, 3)
    link = L.Linear(3, 2, initialW=W)
    assert link.W.dtype == numpy.float32
    assert link.W.array is not W
    numpy.testing.assert_array_equal(link.W.array, W)


def test_call_adds_only_the_linear_node():
    link = L.Linear(3, 2)
    x = Variable(numpy.ones((4, 3), numpy.float32))
    y = link(x)
    node = y.creator
    assert isinstance(node, LinearFunction)
    assert node.inputs == (x.node, link.W.node, link.b.node)


def test_from_params():
    W = ref.uniform(2, 3)
    b = ref.uniform(2)
    link = L.Linear.from_params(W, b)
    assert (link.in_size, link.out_size) == (3, 2)
    numpy.testing.assert_array_equal(link.W.array, W)
    numpy.testing.assert_array_equal(link.b.array, b)
    assert L.Linear.from_params(W, nobias=True).b is None
    numpy.testing.assert_array_equal(L.Linear.from_params(W).b.array, 0)


def test_from_params_and_initialize_params_as_in_chainer():
    lazy = L.Linear(2)
    lazy._initialize_params(3)
    assert lazy.in_size == 3 and lazy.W.shape == (2, 3)
    copy = L.Linear.from_params(lazy.W, lazy.b)
    numpy.testing.assert_array_equal(copy.W.array, lazy.W.array)
    assert copy.W.array is not lazy.W.array


def test_printed_specs():
    assert str(L.Linear(3, 2, nobias=True)) == \
        'Linear(in_size=3, out_size=2, nobias=True)'


@pytest.mark.parametrize('shape', [(3,), ()])
def test_lazy_link_rejects_input_without_feature_axes(shape):
    link = L.Linear(2)
    with pytest.raises(ValueError) as info:
        link(numpy.ones(shape, numpy.float32))
    message = str(info.value)
    assert 'Linear' in message and str(shape) in message
    assert 'n_batch_axes=1' in message
    assert link.W.array is None and link.in_size is None


def test_lazy_link_error_names_the_child():
    from kusari.links import Chain

    class Net(Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(4)

        def forward(self, x):
            return self.l1(x)

    with pytest.raises(ValueError, match="Linear 'l1'.*\\(5,\\)"):
        Net()(numpy.ones(5, numpy.float32))


@pytest.mark.parametrize('args, error', [
    ((0, 2), ValueError), ((3, -1), ValueError), (('3', 2), ValueError),
    ((None,), ValueError),
])
def test_bad_sizes(args, error):
    with pytest.raises(error, match='Linear: .*_size must be a positive'):
        L.Linear(*args)


@pytest.mark.parametrize('b_shape', [(3,), (2, 1), ()])
def test_from_params_rejects_a_bias_of_another_shape(b_shape):
    with pytest.raises(ValueError,
                       match=r'b must have shape \(2,\) for W of shape'):
        L.Linear.from_params(ref.uniform(2, 3), numpy.zeros(b_shape))


def test_lazy_link_with_batch_axes_rejects_input_without_feature_axes():
    link = L.Linear(2)
    with pytest.raises(ValueError, match='n_batch_axes=2'):
        link(numpy.ones((3, 4), numpy.float32), n_batch_axes=2)
    assert link.W.array is None
