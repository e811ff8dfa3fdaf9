"""User-style tests of ``testing.parameterize``, ``product``,
``product_dict`` and ``inject_backend_tests``: the generated classes and
test ids, and the parameters each test sees."""
import unittest

import numpy
import pytest

from chainer import testing

import _record


@testing.parameterize(*testing.product({
    'shape': [(2, 3), ()],
    'dtype': [numpy.float16, numpy.float32],
}))
class TestProduct(unittest.TestCase):

    def test_attributes(self):
        _record.add('product', [str(self.shape), numpy.dtype(
            self.dtype).name])
        assert numpy.zeros(self.shape, self.dtype).shape == self.shape

    def test_fails_for_half(self):
        assert self.dtype != numpy.float16


@testing.parameterize(*testing.product_dict(
    [{'a': 1}, {'a': 2, 'b': 'x'}],
    [{'c': None}, {'c': [1, 2]}],
))
class TestProductDict(unittest.TestCase):

    b = 'default'

    def test_values(self):
        _record.add('product_dict', [self.a, self.b, repr(self.c)])


@testing.parameterize(
    {'long': 'abcdefghijklmnopqrstuvwxyz' * 4},
    {'long': numpy.arange(3)},
    {'long': (1.5, -2)},
)
class TestLongValues(unittest.TestCase):

    def test_value(self):
        assert self.long is not None


@testing.parameterize({'value': 3})
class TestSetUpSeesParameters(unittest.TestCase):

    def setUp(self):
        self.twice = self.value * 2

    def test_twice(self):
        assert self.twice == 6


@testing.inject_backend_tests(
    ['test_device', 'test_array'],
    [{}, {'use_cuda': False}]
    + testing.product({'use_cuda': [True], 'cuda_device': [0, 1]}))
class TestBackends(unittest.TestCase):

    def test_device(self, backend_config):
        _record.add('backend', [str(backend_config.device),
                                backend_config.xp.__name__,
                                bool(backend_config.use_cuda),
                                repr(backend_config),
                                backend_config.use_cudnn,
                                backend_config.use_ideep,
                                backend_config.use_chainerx,
                                backend_config.chainerx_device])

    def test_array(self, backend_config):
        x = backend_config.get_array(numpy.ones(2))
        assert isinstance(x, backend_config.xp.ndarray)

    def test_not_injected(self):
        pass


@testing.inject_backend_tests(None, [{}])
@testing.parameterize(*testing.product({'n': [1, 2]}))
class TestBackendsAndParameters(unittest.TestCase):

    def test_n(self, backend_config):
        assert self.n in (1, 2)


@pytest.mark.parametrize('x', [1, 2])
def test_plain_function(x):
    assert x > 0


@testing.parameterize_pytest('a,b', [(1, 'x'), (2, 'y')])
class TestPytestStyle(unittest.TestCase):

    def test_values(self):
        _record.add('pytest_style', [self.a, self.b])


@testing.parameterize(*testing.from_pytest_parameterize('n', [(1, 2), 3]))
class TestPytestStyleOneName(unittest.TestCase):

    def test_values(self):
        _record.add('pytest_style_one_name', [repr(self.n)])


class TestPatch(unittest.TestCase):

    def test_wrapped(self):
        with testing.patch('numpy.linalg.norm') as norm:
            assert numpy.linalg.norm(numpy.array([3.0, 4.0])) == 5.0
        assert norm.call_count == 1


@testing.parameterize(*testing.product([
    [{'a': 1}, {'a': 2}],
    [{'b': 3}, {'b': 4, 'a': 0}],
]))
class TestProductOfLists(unittest.TestCase):

    def test_values(self):
        _record.add('product_lists', [self.a, self.b])


@testing.parameterize({'k': 1}, {'k': 2})
class TestPlainClass(object):

    def test_k(self):
        assert self.k == 1


@testing.inject_backend_tests(None, [{}])
class TestPlainClassBackends(object):

    def test_config(self, backend_config):
        assert backend_config.xp is numpy
