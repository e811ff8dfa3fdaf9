import unittest

import pytest

from kusari.autograd import testing
from kusari.autograd.testing import condition


def flaky(outcomes):
    """A test function passing or failing as ``outcomes`` says, in turn."""
    calls = []

    def test():
        calls.append(None)
        assert outcomes[len(calls) - 1], 'unlucky'
    return test, calls


@pytest.mark.parametrize('decorator, outcomes, trials, passes', [
    (condition.repeat(3), [True] * 3, 3, True),
    (condition.repeat(3), [True, False, True], 2, False),
    (condition.retry(3), [False, False, True], 3, True),
    (condition.retry(3), [False] * 3, 3, False),
    (condition.retry(3), [True], 1, True),
    (condition.repeat_with_success_at_least(4, 2),
     [False, True, True, False], 3, True),
    (condition.repeat_with_success_at_least(4, 2),
     [False, True, False, False], 4, False),
    (condition.repeat_with_success_at_least(4, 2),
     [False, False, False], 3, False),
])
def test_runs_until_the_outcome_is_decided(decorator, outcomes, trials,
                                           passes):
    test, calls = flaky(outcomes)
    if passes:
        decorator(test)()
    else:
        with pytest.raises(AssertionError, match='unlucky'):
            decorator(test)()
    assert len(calls) == trials


def test_failure_says_how_many_trials_passed():
    test, _ = flaky([True, False, False])
    with pytest.raises(AssertionError) as info:
        condition.repeat_with_success_at_least(3, 2)(test)()
    message = str(info.value)
    assert message.startswith(
        '\nFail: 2, Success: 1 (needed 2 successes in 3 trials)\n\n'
        'The first error message:\nTraceback')
    assert "AssertionError: unlucky" in message


def test_unittest_trials_get_a_fresh_instance_each():
    events = []

    class TestFlaky(unittest.TestCase):
        def setUp(self):
            events.append('setUp')
            self.value = len(events)

        def tearDown(self):
            events.append('tearDown')

        @condition.retry(3)
        def test_it(self):
            events.append('test')
            assert self.value >= 8  # len(events) in the third trial
    result = unittest.TestResult()
    TestFlaky('test_it').run(result)
    assert result.wasSuccessful()
    # The runner's own setUp and tearDown, around three trials.
    assert events == ['setUp'] + ['setUp', 'test', 'tearDown'] * 3 + [
        'tearDown']


def test_skip_in_a_trial_skips_the_test():
    calls = []

    @condition.repeat(3)
    def test():
        calls.append(None)
        raise unittest.SkipTest('no')
    with pytest.raises(unittest.SkipTest):
        test()
    assert len(calls) == 1


def test_exported_by_testing():
    assert testing.condition.retry is condition.retry


def test_rejects_more_successes_than_trials_as_chainer_does():
    with pytest.raises(AssertionError, match='min_success must be at most'):
        condition.repeat_with_success_at_least(10, 11)


def test_rejects_counts_that_are_not_ints():
    with pytest.raises(TypeError, match='repeat_with_success_at_least'):
        condition.repeat_with_success_at_least(2.0, 1)


@pytest.mark.parametrize('decorator', [condition.repeat(3),
                                       condition.retry(3)])
def test_pytest_skip_in_a_trial_is_a_unittest_skip(decorator):
    calls = []

    @decorator
    def test():
        calls.append(1)
        pytest.skip('not here')
    with pytest.raises(unittest.SkipTest, match='not here'):
        test()
    assert calls == [1]
