"""User-style tests of ``testing.condition``, ``fix_random``,
``attr``, ``with_requires``, ``assert_warns`` and ``assert_allclose``."""
import random
import unittest
import warnings

import numpy

from chainer import testing
from chainer.testing import attr
from chainer.testing import condition

import _record

CALLS = {}


def _call(name):
    """How many times the test ``name`` has run before, counting this."""
    CALLS[name] = CALLS.get(name, 0) + 1
    _record.add('calls', [name, CALLS[name]])
    return CALLS[name]


class TestConditions(unittest.TestCase):

    @condition.repeat(3)
    def test_repeat_passes(self):
        _call('repeat_passes')

    @condition.repeat(4)
    def test_repeat_fails_second(self):
        assert _call('repeat_fails_second') != 2

    @condition.repeat_with_success_at_least(5, 3)
    def test_success_at_least_enough(self):
        assert _call('at_least_enough') % 3 != 0

    @condition.repeat_with_success_at_least(5, 4)
    def test_success_at_least_too_few(self):
        assert _call('at_least_too_few') % 3 != 0

    @condition.retry(3)
    def test_retry_third_time(self):
        assert _call('retry_third') == 3

    @condition.retry(2)
    def test_retry_never(self):
        assert _call('retry_never') == 3


def _draws(name, label):
    _record.add(name, [label, numpy.random.rand(3).tolist()])
    _record.add('fix_random_python', [name, label, random.random()])


@testing.fix_random()
class TestFixRandom(unittest.TestCase):

    def test_draws_a(self):
        _draws('fix_random_class', 'a')

    def test_draws_b(self):
        _draws('fix_random_class', 'b')


@testing.parameterize({'n': 1}, {'n': 2})
@testing.fix_random(setup_method='setUp', teardown_method='tearDown')
class TestFixRandomParameterized(unittest.TestCase):

    def setUp(self):
        self.first = numpy.random.rand()

    def test_draws(self):
        _draws('fix_random_parameterized', [self.n, self.first])


class TestFixRandomMethod(unittest.TestCase):

    @testing.fix_random()
    def test_draws_a(self):
        _draws('fix_random_method', 'a')

    @testing.fix_random()
    def test_draws_b(self):
        _draws('fix_random_method', 'b')


class TestRequires(unittest.TestCase):

    @testing.with_requires('numpy>=1.0')
    def test_numpy_present(self):
        pass

    @testing.with_requires('numpy<1.0')
    def test_numpy_too_new(self):
        pass

    @testing.with_requires('no-such-package-kusari>=1')
    def test_missing_package(self):
        pass

    @testing.without_requires('no-such-package-kusari')
    def test_without_missing(self):
        pass

    @testing.without_requires('numpy>=1.0')
    def test_without_present(self):
        pass


class TestAttr(unittest.TestCase):

    @attr.gpu
    def test_gpu(self):
        pass

    @attr.multi_gpu(2)
    def test_multi_gpu(self):
        pass

    @attr.slow
    def test_slow(self):
        pass


class TestWarns(unittest.TestCase):

    def test_warned(self):
        with testing.assert_warns(UserWarning):
            warnings.warn('careful', UserWarning)

    def test_subclass_warned(self):
        with testing.assert_warns(Warning):
            warnings.warn('careful', DeprecationWarning)

    def test_not_warned(self):
        with testing.assert_warns(UserWarning):
            pass

    def test_other_warning(self):
        with testing.assert_warns(DeprecationWarning):
            warnings.warn('careful', UserWarning)


class TestAllclose(unittest.TestCase):

    def test_close(self):
        testing.assert_allclose(numpy.ones(3), numpy.ones(3) + 1e-6)

    def test_close_options(self):
        testing.assert_allclose([1.0, 2.0], [1.1, 2.2], atol=0, rtol=0.1)

    def test_scalar_and_list(self):
        testing.assert_allclose(1.0, numpy.float32(1.0))

    def test_far(self):
        testing.assert_allclose(numpy.ones(3), numpy.array([1., 2., 1.]))

    def test_far_verbose_false(self):
        testing.assert_allclose(numpy.zeros((2, 2)), numpy.eye(2),
                                verbose=False)

    def test_shape_mismatch(self):
        testing.assert_allclose(numpy.ones(3), numpy.ones(4))

    def test_broadcast(self):
        testing.assert_allclose(numpy.ones((2, 3)), numpy.ones(3))

    def test_nan(self):
        testing.assert_allclose(numpy.array([numpy.nan]),
                                numpy.array([numpy.nan]))

    def test_dtype_differs(self):
        testing.assert_allclose(numpy.ones(2, numpy.float16),
                                numpy.ones(2, numpy.float64))

    def test_raises_assertion_error(self):
        with self.assertRaises(AssertionError):
            testing.assert_allclose(1.0, 2.0)


MISMATCHES = {
    'one': (numpy.ones(3), numpy.array([1., 2., 1.]), {}),
    'quiet': (numpy.zeros((2, 2)), numpy.eye(2), {'verbose': False}),
    'shapes': (numpy.ones(3), numpy.ones(4), {}),
    'broadcast': (numpy.ones((2, 3)), numpy.ones(3), {}),
    'nan': (numpy.array([numpy.nan, 1.]), numpy.array([1., 1.]), {}),
    'zero_expected': (numpy.array([0.5, 0.]), numpy.zeros(2), {}),
    'float16': (numpy.array([1, 2], numpy.float16),
                numpy.array([1, 2.1], numpy.float32), {}),
    'ints': (numpy.array([1, 5]), numpy.array([1, 2]), {}),
    'scalars': (1.0, 2.0, {'atol': 0.5, 'rtol': 0}),
    'inf': (numpy.array([numpy.inf]), numpy.array([1.0]), {}),
}


@testing.parameterize(*[{'case': name} for name in sorted(MISMATCHES)])
class TestAllcloseMessage(unittest.TestCase):

    def test_message(self):
        x, y, options = MISMATCHES[self.case]
        try:
            testing.assert_allclose(x, y, **options)
        except AssertionError as error:
            # The report after NumPy's (which differs between NumPy 1 and
            # 2), without the errors (their last digits and an int's
            # '3' or '3.0' are the computation's, not the gist).
            tail = str(error).split('assert_allclose failed:')[1]
            _record.add('allclose_message', [self.case, [
                line.rstrip() for line in tail.splitlines()
                if not line.startswith(('  relative error',
                                        '  absolute error'))]])
            raise


class TestGenerateSeed(unittest.TestCase):

    @testing.fix_random()
    def test_seed(self):
        _record.add('generate_seed', [testing.generate_seed(),
                                      testing.generate_seed()])


class TestRepeatSetUp(unittest.TestCase):

    def setUp(self):
        _record.add('repeat_set_up', ['setUp', self._testMethodName])

    def tearDown(self):
        _record.add('repeat_set_up', ['tearDown', self._testMethodName])

    @condition.repeat(3)
    def test_repeat(self):
        _record.add('repeat_set_up', ['test', self._testMethodName])

    @condition.retry(3)
    def test_retry(self):
        assert _call('set_up_retry') == 2

    @condition.repeat_with_success_at_least(4, 2)
    def test_at_least(self):
        assert _call('set_up_at_least') % 2 == 0
