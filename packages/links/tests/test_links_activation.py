"""Activation layers with parameters and SimplifiedDropconnect: forward
and gradients against NumPy, lazy shapes, initializer layouts."""
import re

import numpy
import pytest

from kusari.autograd import testing as autograd_testing
from kusari.links import layers as L
from kusari.serializers import load_npz

import connection_reference as ref

BACKENDS = [{}, {'use_cuda': True}]


@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestPReLU(ref.ConnectionLinkTest):
    param_names = ('W',)
    dodge_nondifferentiable = True

    def generate_params(self):
        return ref.uniform(3),

    def create_link(self, initializers):
        return L.PReLU((3,), init=initializers[0])

    def generate_inputs(self):
        return ref.uniform(4, 3, 2),

    def forward_expected(self, link, inputs):
        x, = inputs
        slope = link.W.array.reshape(1, 3, 1)
        return numpy.where(x > 0, x, slope * x).astype(numpy.float32),


@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestSwish(ref.ConnectionLinkTest):
    param_names = ('beta',)

    def generate_params(self):
        return ref.uniform(3, 2),

    def create_link(self, initializers):
        return L.Swish(None, beta_init=initializers[0])

    def generate_inputs(self):
        return ref.uniform(4, 3, 2),

    def forward_expected(self, link, inputs):
        x, = inputs
        beta = link.beta.array.astype(numpy.float64)
        return (x / (1 + numpy.exp(-beta * x))).astype(numpy.float32),


@autograd_testing.inject_backend_tests(None, BACKENDS)
class TestMaxout(ref.ConnectionLinkTest):
    dodge_nondifferentiable = True

    def generate_params(self):
        return ref.uniform(2, 3, 4), ref.uniform(2, 3)

    def create_link(self, initializers):
        return L.Maxout(4, 2, 3, *initializers)

    def generate_inputs(self):
        return ref.uniform(5, 4),

    def forward_expected(self, link, inputs):
        x, = inputs
        W = link.linear.W.array.reshape(2, 3, 4)
        b = link.linear.b.array.reshape(2, 3)
        y = numpy.einsum('ni,opi->nop', x.astype(numpy.float64), W) + b
        return y.max(axis=2).astype(numpy.float32),


def test_maxout_layout_errors():
    with pytest.raises(ValueError, match=r'\(2, 3, 4\)'):
        L.Maxout(4, 2, 3, initialW=numpy.zeros((6, 4), numpy.float32))
    assert L.Maxout(4, 2, 3, initial_bias=None).linear.b is None


def test_simplified_dropconnect():
    link = L.SimplifiedDropconnect(None, 3, ratio=0.5)
    x = ref.uniform(4, 2, 2)
    mask = (numpy.random.rand(4, 3, 4) > 0.5).astype(numpy.float32)
    y = link(x, mask=mask)
    assert link.W.shape == (3, 4)
    flat = x.reshape(4, -1).astype(numpy.float64)
    expected = numpy.einsum('ni,noi->no', flat, mask * link.W.array) / 0.5
    numpy.testing.assert_allclose(y.array, expected + link.b.array,
                                  rtol=1e-5, atol=1e-5)
    plain = link(x, train=False).array
    numpy.testing.assert_allclose(plain, flat @ link.W.array.T +
                                  link.b.array, rtol=1e-5, atol=1e-5)



def test_simplified_dropconnect_saves_no_mask(tmp_path):
    # Chainer 7.8.1 keeps the first given mask as a persistent; Kusari
    # does not (see forward), yet loads Chainer's files that have one.
    link = L.SimplifiedDropconnect(2, 3)
    link(ref.uniform(4, 2), mask=numpy.ones((4, 3, 2), numpy.float32))
    assert 'mask' not in link._persistent
    path = tmp_path / 'chainer.npz'
    numpy.savez(path, W=numpy.ones((3, 2)), b=numpy.zeros(3),
                mask=numpy.ones((4, 3, 2)))
    load_npz(str(path), link)
    numpy.testing.assert_array_equal(link.W.array, 1)


@pytest.mark.parametrize('name, shape', [
    ('initialW', (6, 4)), ('initialW', (3, 3, 4)),
    ('initial_bias', (6,)), ('initial_bias', (3, 2)), ('initial_bias', (2,)),
])
def test_maxout_rejects_arrays_of_another_shape(name, shape):
    expected = (2, 3, 4) if name == 'initialW' else (2, 3)
    with pytest.raises(ValueError, match=rf'Maxout: {name} must have shape '
                       rf'{re.escape(str(expected))}'):
        L.Maxout(4, 2, 3, **{name: numpy.zeros(shape, numpy.float32)})
