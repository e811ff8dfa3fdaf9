import unittest

import pytest

from kusari.array import lazy_cupy
from kusari.autograd import testing
from kusari.autograd.testing import attr

no_cupy = pytest.mark.skipif(lazy_cupy.cupy_or_none() is not None,
                             reason='checks the skip where CuPy is missing')


def mark_names(obj):
    return [m.name for m in getattr(obj, 'pytestmark', [])]


def skip_reason(test, *args):
    with pytest.raises(unittest.SkipTest) as info:
        test(*args)
    return str(info.value)


def test_gpu_limit_skips_tests_needing_more_gpus(monkeypatch):
    monkeypatch.setenv('CHAINER_TEST_GPU_LIMIT', '1')

    @attr.multi_gpu(2)
    def needs_two():
        raise AssertionError('ran')
    assert mark_names(needs_two) == ['gpu']
    assert skip_reason(needs_two) == (
        '2 GPU(s) required, but CHAINER_TEST_GPU_LIMIT=1')


def test_gpu_limit_must_be_a_number(monkeypatch):
    monkeypatch.setenv('CHAINER_TEST_GPU_LIMIT', 'all')
    with pytest.raises(ValueError, match='CHAINER_TEST_GPU_LIMIT must be'):
        attr.gpu(lambda: None)()


@no_cupy
@pytest.mark.parametrize('decorator', [attr.gpu, attr.cudnn])
def test_gpu_tests_skip_saying_cupy_is_missing(decorator):
    @decorator
    def test():
        raise AssertionError('ran')
    assert 'CuPy is not installed' in skip_reason(test)


@pytest.mark.parametrize('decorator, name', [
    (attr.chainerx, 'ChainerX'), (attr.ideep, 'iDeep')])
def test_removed_backends_always_skip(decorator, name):
    @decorator
    def test():
        raise AssertionError('ran')
    assert mark_names(test) == [name.lower()]
    assert skip_reason(test).startswith(f'{name} is not part of Kusari')


def test_slow_only_marks():
    @attr.slow
    def test():
        return 'ran'
    assert mark_names(test) == ['slow']
    assert test() == 'ran'


def test_class_decoration_skips_before_set_up(monkeypatch):
    monkeypatch.setenv('CHAINER_TEST_GPU_LIMIT', '0')
    calls = []

    @attr.gpu
    class TestSomething(unittest.TestCase):
        def setUp(self):
            calls.append('setUp')

        def test_it(self):
            calls.append('test')
    result = unittest.TestResult()
    TestSomething('test_it').run(result)
    assert [reason for _, reason in result.skipped] == [
        '1 GPU(s) required, but CHAINER_TEST_GPU_LIMIT=0']
    assert calls == []
    assert mark_names(TestSomething) == ['gpu']


def test_decorating_generated_classes_marks_each(monkeypatch):
    monkeypatch.setenv('CHAINER_TEST_GPU_LIMIT', '0')
    bundle = attr.gpu(testing.parameterize({'a': 1}, {'a': 2})(
        type('TestX', (), {'test_it': lambda self: None})))
    for cls in bundle.classes:
        assert mark_names(cls) == ['gpu']
        assert skip_reason(cls().test_it).endswith('LIMIT=0')


def test_rejects_what_is_not_a_test():
    with pytest.raises(TypeError, match='expected a test function or'):
        attr.gpu(3)
    with pytest.raises(ValueError, match='multi_gpu: gpu_num must be'):
        attr.multi_gpu(0)
