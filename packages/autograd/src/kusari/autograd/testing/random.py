"""Fixing the global random generators' seeds during a test."""
import functools
import os
import random
import unittest

import numpy

from kusari.array import lazy_cupy
from kusari.autograd.testing import _bundle

# Nested fixes (a fixed class whose method is fixed too, or the fresh setUp
# of each trial of ``condition.repeat``) leave the outermost seeding alone:
# the trials must see different numbers.
_state = {'depth': 0, 'saved': None}
# Set to 1, the tests draw fresh numbers on every run (as in Chainer).
NONDETERMINISTIC_VARIABLE = 'CHAINER_TEST_RANDOM_NONDETERMINISTIC'


def fix_random(seed=100, *, setup_method='setUp',
               teardown_method='tearDown'):
    """Decorator seeding the random generators for each test.

    Before each test (a test function or method, or each test of a
    unittest or pytest class) ``numpy.random``, ``random`` and, when CuPy
    is in use, ``cupy.random`` are seeded with ``seed``; after it their
    previous states are restored, so the test sees the same numbers on
    every run and leaves no trace on the others. Used as
    ``@fix_random()``. A unittest class is seeded in its method named
    ``setup_method`` and restored after ``teardown_method``. Where the
    environment variable ``CHAINER_TEST_RANDOM_NONDETERMINISTIC`` is 1,
    the generators get fresh random seeds instead.
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(
            f'fix_random: seed must be an int, got {seed!r} (fix_random is '
            f'called: @fix_random())')
    for name, value in (('setup_method', setup_method),
                        ('teardown_method', teardown_method)):
        if not isinstance(value, str):
            raise TypeError(f'fix_random: {name} must be a method name '
                            f'(str), got {value!r}')

    def decorate(obj):
        if isinstance(obj, type) and issubclass(obj, unittest.TestCase):
            _seed_set_up(obj, seed, setup_method, teardown_method)
        elif isinstance(obj, type):
            _bundle.wrap_tests(obj, lambda method: _seeded(method, seed))
        elif callable(obj):
            return _seeded(obj, seed)
        else:
            raise TypeError(
                f'fix_random: expected a test function or class, got '
                f'{obj!r}')
        return obj

    def decorator(target):
        return _bundle.for_each_class(target, decorate)
    return decorator


def generate_seed():
    """A seed drawn from ``numpy.random`` inside a :func:`fix_random`
    test: the same on every run, for a generator the test makes."""
    if _state['depth'] == 0:
        raise RuntimeError('generate_seed: call it inside a test decorated '
                           'with fix_random()')
    return int(numpy.random.randint(0xffffffff))


def _seed_set_up(case_class, seed, setup_method, teardown_method):
    """Seed in ``setup_method`` (which may draw numbers) and restore after
    ``teardown_method``."""
    set_up = getattr(case_class, setup_method)
    tear_down = getattr(case_class, teardown_method)

    @functools.wraps(set_up)
    def seeded_set_up(self):
        _enter(seed)
        try:
            set_up(self)
        except BaseException:
            _exit()  # unittest runs no tearDown after a failed setUp
            raise

    @functools.wraps(tear_down)
    def restoring_tear_down(self):
        try:
            tear_down(self)
        finally:
            _exit()
    setattr(case_class, setup_method, seeded_set_up)
    setattr(case_class, teardown_method, restoring_tear_down)


def _seeded(func, seed):
    @functools.wraps(func)
    def seeded(*args, **kwargs):
        _enter(seed)
        try:
            return func(*args, **kwargs)
        finally:
            _exit()
    return seeded


def _enter(seed):
    _state['depth'] += 1
    if _state['depth'] > 1:
        return
    cupy = lazy_cupy.cupy_or_none() if lazy_cupy.imported_cupy() else None
    _state['saved'] = (random.getstate(), numpy.random.get_state(),
                       cupy and cupy.random.get_random_state())
    if os.environ.get(NONDETERMINISTIC_VARIABLE, '0') == '1':
        seed = None
    random.seed(seed)
    numpy.random.seed(seed)
    if cupy is not None:
        cupy.random.set_random_state(cupy.random.RandomState(seed))


def _exit():
    _state['depth'] -= 1
    if _state['depth'] > 0:
        return
    python_state, numpy_state, cupy_state = _state['saved']
    _state['saved'] = None
    random.setstate(python_state)
    numpy.random.set_state(numpy_state)
    if cupy_state is not None:
        lazy_cupy.require_cupy().random.set_random_state(cupy_state)
