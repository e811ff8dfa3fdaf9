"""Running a test several times: for flaky statistics, or to insist.

A decorated test runs up to ``times`` trials and passes once
``min_success`` of them have passed; it stops as soon as the outcome is
decided. A trial of a ``unittest.TestCase`` method runs on a fresh instance
with its own ``setUp`` and ``tearDown``; a trial of a pytest function or
method calls it again with the same arguments (fixtures are not remade).
"""
import functools
import traceback
import unittest

import pytest


def repeat_with_success_at_least(times, min_success):
    """Decorator: pass when at least ``min_success`` of ``times`` trials
    pass.

    A skipped trial (by ``unittest.SkipTest`` or ``pytest.skip``) skips
    the test with ``unittest.SkipTest``. The failure says how many trials
    failed and passed, with the first failure's traceback. A
    ``min_success`` above ``times`` can never pass: an AssertionError, as
    in Chainer.
    """
    if not (isinstance(times, int) and isinstance(min_success, int)):
        raise TypeError(
            f'repeat_with_success_at_least: times and min_success must be '
            f'ints, got times={times!r}, min_success={min_success!r}')
    if min_success > times:
        raise AssertionError(
            f'repeat_with_success_at_least: min_success must be at most '
            f'times, got times={times!r}, min_success={min_success!r}')

    def decorator(test):
        @functools.wraps(test)
        def repeated(*args, **kwargs):
            successes = failures = 0
            first_failure = None
            while successes < min_success:
                if failures > times - min_success:
                    raise AssertionError(
                        f'\nFail: {failures}, Success: {successes} (needed '
                        f'{min_success} successes in {times} trials)\n\n'
                        f'The first error message:\n{first_failure}')
                try:
                    _run_trial(test, args, kwargs)
                except unittest.SkipTest:
                    raise
                except pytest.skip.Exception as skipped:
                    raise unittest.SkipTest(skipped.msg) from skipped
                except Exception:
                    failures += 1
                    first_failure = first_failure or traceback.format_exc()
                else:
                    successes += 1
        return repeated
    return decorator


def repeat(times):
    """Decorator: pass only when all ``times`` trials pass."""
    return repeat_with_success_at_least(times, times)


def retry(times):
    """Decorator: pass when any of ``times`` trials passes."""
    return repeat_with_success_at_least(times, 1)


def _run_trial(test, args, kwargs):
    if not (args and isinstance(args[0], unittest.TestCase)):
        test(*args, **kwargs)
        return
    case = type(args[0])(args[0]._testMethodName)
    case.setUp()
    try:
        test(case, *args[1:], **kwargs)
    finally:
        try:
            case.tearDown()
        finally:
            case.doCleanups()
