import random
import unittest

import numpy
import pytest

from kusari.autograd import testing


def draw():
    return numpy.random.rand(), random.random()


def test_function_sees_the_same_numbers_and_restores_the_state():
    numpy.random.seed(7)
    random.seed(7)
    expected_after = draw()
    numpy.random.seed(7)
    random.seed(7)

    @testing.fix_random()
    def test():
        return draw()
    first, second = test(), test()
    assert first == second
    numpy.random.seed(100)
    random.seed(100)
    assert first == draw()  # seeded with the default seed, 100
    numpy.random.seed(7)
    random.seed(7)
    test()
    assert draw() == expected_after


def test_seed_is_configurable():
    draws = [testing.fix_random(seed)(draw)() for seed in (1, 1, 2)]
    assert draws[0] == draws[1] != draws[2]


def test_unittest_class_is_seeded_in_set_up_and_restored_after():
    drawn = []

    @testing.fix_random()
    class TestRandom(unittest.TestCase):
        def setUp(self):
            drawn.append(('setUp', numpy.random.rand()))

        def test_a(self):
            drawn.append(('test', numpy.random.rand()))

        def test_b(self):
            drawn.append(('test', numpy.random.rand()))
    numpy.random.seed(3)
    state = numpy.random.get_state()[1].copy()
    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(TestRandom).run(result)
    assert result.wasSuccessful()
    assert drawn[:2] == drawn[2:] and drawn[0] != drawn[1]
    assert (numpy.random.get_state()[1] == state).all()


def test_plain_class_methods_are_seeded():
    @testing.fix_random()
    class TestPlain:
        def test_a(self):
            return draw()
    assert TestPlain().test_a() == TestPlain().test_a()


def test_state_is_restored_when_the_test_fails():
    numpy.random.seed(5)
    expected = numpy.random.rand()
    numpy.random.seed(5)

    @testing.fix_random()
    def test():
        raise ValueError
    with pytest.raises(ValueError):
        test()
    assert numpy.random.rand() == expected


def test_nested_fixes_seed_only_once():
    @testing.fix_random()
    def inner():
        return numpy.random.rand()

    @testing.fix_random()
    def outer():
        return inner(), inner()
    first, second = outer()
    assert first != second


@pytest.mark.parametrize('bad, error', [(1.5, TypeError), (True, TypeError)])
def test_rejects_bad_seeds(bad, error):
    with pytest.raises(error, match='fix_random: seed must be an int'):
        testing.fix_random(bad)


def test_rejects_what_is_not_a_test():
    with pytest.raises(TypeError, match='fix_random: expected a test'):
        testing.fix_random()(3)


def test_named_set_up_and_tear_down_methods_are_wrapped():
    # Chainer's keywords: seed in ``setup_method``, restore after
    # ``teardown_method``.
    @testing.fix_random(setup_method='before', teardown_method='after')
    class TestNamed(unittest.TestCase):
        def before(self):
            self.first = numpy.random.rand()

        def after(self):
            pass

        def test_nothing(self):
            pass
    numpy.random.seed(9)
    state = numpy.random.get_state()[1].copy()
    firsts = []
    for _ in range(2):
        case = TestNamed('test_nothing')
        case.before()
        firsts.append((case.first, numpy.random.rand()))
        case.after()
    assert firsts[0] == firsts[1]
    assert (numpy.random.get_state()[1] == state).all()
    with pytest.raises(TypeError, match='fix_random: setup_method must'):
        testing.fix_random(setup_method=None)


def test_nondeterministic_variable_draws_fresh_numbers(monkeypatch):
    @testing.fix_random()
    def test():
        return numpy.random.rand(4).tolist()
    monkeypatch.setenv('CHAINER_TEST_RANDOM_NONDETERMINISTIC', '1')
    assert test() != test()
    monkeypatch.setenv('CHAINER_TEST_RANDOM_NONDETERMINISTIC', '0')
    assert test() == test()


def test_generate_seed_is_fixed_inside_a_fixed_test():
    @testing.fix_random()
    def seeds():
        return testing.generate_seed(), testing.generate_seed()
    first = seeds()
    assert first == seeds() and first[0] != first[1]
    assert all(isinstance(s, int) and 0 <= s < 2 ** 32 - 1 for s in first)
    with pytest.raises(RuntimeError, match='generate_seed: call it inside'):
        testing.generate_seed()
