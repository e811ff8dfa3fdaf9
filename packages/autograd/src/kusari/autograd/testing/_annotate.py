"""Decorators that mark tests and skip those whose requirements are unmet.

Whether a requirement is met is decided when the test runs, not when it is
decorated: collecting a module costs nothing (CuPy is not imported) and a
deselected test never probes the hardware. ``unittest.SkipTest`` is what
both unittest and pytest report as a skip, from functions, methods and
``setUp`` alike.
"""
import functools
import unittest

from kusari.autograd.testing import _bundle

# Methods run before a test that may already need what the test needs.
_SETUP_NAMES = ('setUp', 'setup_method')


def annotation(mark, unmet=None):
    """A test decorator applying a pytest ``mark``, and skipping the test
    when ``unmet()`` returns a reason (a string; None means it can run).

    The decorator works on test functions and methods, on unittest and
    pytest test classes, and on the result of ``parameterize``.
    """
    def decorate(obj):
        if not callable(obj):
            raise TypeError(
                f'expected a test function or class to decorate, got '
                f'{obj!r}')
        if mark is not None:
            obj = mark(obj)
        if unmet is None:
            return obj
        if not isinstance(obj, type):
            return _guarded(obj, unmet)
        _bundle.wrap_tests(obj, lambda method: _guarded(method, unmet),
                           also=_SETUP_NAMES)
        return obj

    def decorator(target):
        return _bundle.for_each_class(target, decorate)
    return decorator


def _guarded(func, unmet):
    @functools.wraps(func)
    def guarded(*args, **kwargs):
        reason = unmet()
        if reason is not None:
            raise unittest.SkipTest(reason)
        return func(*args, **kwargs)
    return guarded
