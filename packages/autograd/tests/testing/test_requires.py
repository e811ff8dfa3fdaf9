import unittest

import pytest

from kusari.autograd import testing


def outcome(decorator):
    ran = []

    @decorator
    def test():
        ran.append(True)
    try:
        test()
    except unittest.SkipTest as skip:
        return f'skipped: {skip}'
    return 'ran' if ran else 'neither'


@pytest.mark.parametrize('requirements, expected', [
    (('numpy<1',), 'skipped: requires: numpy<1'),
    (('numpy>=2',), 'ran'),
    (('numpy>=2', 'scipy'), 'ran'),
    (('numpy>=2', 'no-such-distribution-kusari'),
     'skipped: requires: numpy>=2,no-such-distribution-kusari'),
    (('numpy<1; python_version < "3"',), 'ran'),  # marker: does not apply
])
def test_with_requires(requirements, expected):
    assert outcome(testing.with_requires(*requirements)) == expected


@pytest.mark.parametrize('requirements, expected', [
    (('numpy<1',), 'ran'),
    (('numpy>=2',), 'skipped: runs only without: numpy>=2'),
])
def test_without_requires(requirements, expected):
    assert outcome(testing.without_requires(*requirements)) == expected


def test_with_requires_on_a_unittest_class_skips_every_test():
    @testing.with_requires('numpy<1')
    class TestOld(unittest.TestCase):
        def test_a(self):
            pass
    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(TestOld).run(result)
    assert result.skipped[0][1] == 'requires: numpy<1'


def test_rejects_invalid_requirements():
    with pytest.raises(ValueError, match="with_requires: 'numpy>>2' is not"):
        testing.with_requires('numpy>>2')
    with pytest.raises(TypeError, match='without_requires: give at least'):
        testing.without_requires()
