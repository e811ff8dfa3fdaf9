"""chainer.testing.distribution_unittest: the base class of distribution
tests, run here on small user-style test classes."""
import unittest

import numpy
import scipy.stats

from kusari import distributions as D
from kusari.autograd import testing
from kusari.autograd.testing import attr
from kusari.distributions import testing as distribution_testing


def _normal_case(**attributes):
    """A test class of Normal against scipy.stats.norm; ``attributes``
    override the class's."""

    class TestNormal(distribution_testing.distribution_unittest):

        scipy_onebyone = True
        shape = (2, 3)
        sample_shape = (4,)
        is_variable = True
        targets = ('batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf',
                   'log_cdf', 'log_prob', 'log_survival', 'mean', 'prob',
                   'sample', 'stddev', 'support', 'survival', 'variance')
        scipy_dist = scipy.stats.norm

        def setUp_configure(self):
            self.dist = D.Normal
            self.test_targets = set(self.targets)
            loc = numpy.random.uniform(-1, 1, self.shape).astype('f')
            scale = numpy.exp(numpy.random.uniform(-1, 1, self.shape))
            self.params = {'loc': loc, 'scale': scale.astype('f')}
            self.scipy_params = {'loc': loc, 'scale': scale.astype('f')}

        def sample_for_test(self):
            return numpy.random.normal(
                size=self.sample_shape + self.shape).astype('f')

    for name, value in attributes.items():
        setattr(TestNormal, name, value)
    return TestNormal


def _run(case_class, *names, device='cpu'):
    names = names or [name for name in dir(case_class)
                      if name.startswith('test_')
                      and name.endswith(f'_{device}')]
    suite = unittest.TestSuite(case_class(name) for name in names)
    result = unittest.TestResult()
    testing.fix_random()(case_class)
    suite.run(result)
    return result


def test_a_correct_distribution_passes_every_target():
    result = _run(_normal_case())
    assert result.testsRun == 15
    assert not result.failures and not result.errors, (
        result.failures + result.errors)
    assert not result.skipped


def test_batch_elements_one_by_one_and_broadcast_agree():
    for onebyone in (True, False):
        result = _run(_normal_case(scipy_onebyone=onebyone,
                                   is_variable=False))
        assert not result.failures and not result.errors


def test_targets_not_asked_for_skip():
    result = _run(_normal_case(targets=('mean',)))
    assert result.testsRun == 15
    assert len(result.skipped) == 14
    assert not result.failures and not result.errors


def test_a_wrong_scipy_counterpart_fails():
    result = _run(_normal_case(scipy_dist=scipy.stats.logistic),
                  'test_log_prob_cpu', 'test_sample_cpu', 'test_mean_cpu')
    assert len(result.failures) == 2  # the means of both agree
    failed = {case._testMethodName for case, _ in result.failures}
    assert failed == {'test_log_prob_cpu', 'test_sample_cpu'}


def test_a_wrong_support_fails():
    case = _normal_case()

    class WrongSupport(case):
        def setUp_configure(self):
            super().setUp_configure()
            self.support = 'positive'

    result = _run(WrongSupport, 'test_support_cpu')
    assert len(result.failures) == 1


def test_vector_events_are_compared_per_batch_element():
    class TestOneHot(distribution_testing.distribution_unittest):
        scipy_onebyone = True
        shape = (2,)
        sample_shape = (3,)

        def setUp_configure(self):
            self.dist = D.OneHotCategorical
            self.scipy_dist = scipy.stats.multinomial
            self.test_targets = {'event_shape', 'log_prob', 'mean',
                                 'sample'}
            p = numpy.random.dirichlet(numpy.ones(4), self.shape)
            self.p = p.astype('f')
            self.params = {'p': self.p}
            self.scipy_params = {'n': numpy.ones(self.shape, int), 'p': p}
            self.event_shape = (4,)
            self.continuous = False

        def sample_for_test(self):
            classes = numpy.random.randint(
                0, 4, self.sample_shape + self.shape)
            return numpy.eye(4, dtype='f')[classes]

    result = _run(TestOneHot)
    assert not result.failures and not result.errors
    assert len(result.skipped) == 11


def test_an_unknown_target_is_an_error():
    result = _run(_normal_case(targets=('median',)), 'test_mean_cpu')
    assert len(result.errors) == 1
    assert "unknown test_targets ['median']" in result.errors[0][1]


def test_the_base_class_is_not_collected_but_subclasses_are():
    assert distribution_testing.distribution_unittest.__test__ is False
    assert _normal_case().__test__ is True



@attr.gpu
def test_gpu_tests_compare_the_distribution_on_the_gpu():
    result = _run(_normal_case(), device='gpu')
    assert result.testsRun == 15
    assert not result.failures and not result.errors and not result.skipped, (
        result.failures + result.errors + result.skipped)
    result = _run(_normal_case(scipy_dist=scipy.stats.logistic),
                  'test_log_prob_gpu')
    assert len(result.failures) == 1
