import unittest

import hypothesis
import hypothesis.strategies as st
import numpy
import pytest

from kusari.autograd import testing
from kusari.autograd.testing import parameterized


def case_class(module, name='TestFoo', base=unittest.TestCase, **members):
    members.setdefault('test_nothing', lambda self: None)
    return type(name, (base,), {'__module__': module.__name__, **members})


def generated_names(module):
    return sorted(n for n, v in vars(module).items() if isinstance(v, type))


def test_names_sort_keys_and_show_types_by_name(module):
    testing.parameterize(
        {'shape': (3, 2), 'dtype': numpy.float16},
        {'shape': (), 'dtype': numpy.float64, 'axis': None},
    )(case_class(module))
    assert generated_names(module) == [
        'TestFoo_param_0_{dtype=float16, shape=(3, 2)}',
        'TestFoo_param_1_{axis=None, dtype=float64, shape=()}',
    ]


def test_long_values_are_shortened_in_the_middle(module):
    testing.parameterize({'text': 'a' * 150})(case_class(module))
    value = "'" + 'a' * 47 + '...' + 'a' * 48 + "'"
    assert len(value) == 100
    assert generated_names(module) == [f'TestFoo_param_0_{{text={value}}}']


def test_base_class_is_replaced_by_the_generated_ones(module):
    base = case_class(module)
    # What ``@parameterize`` above ``class TestFoo`` binds to its name:
    module.TestFoo = testing.parameterize({'a': 1}, {'a': 2})(base)
    assert not isinstance(module.TestFoo, type)
    classes = [getattr(module, n) for n in generated_names(module)]
    assert [c.a for c in classes] == [1, 2]
    assert all(issubclass(c, base) and c.__module__ == module.__name__
               for c in classes)


def test_functions_are_not_bound_to_the_instance(module):
    def double(x):
        return 2 * x
    testing.parameterize({'f': double})(case_class(module))
    cls, = [getattr(module, n) for n in generated_names(module)]
    assert cls('test_nothing').f(3) == 6


def test_stacked_decorators_multiply(module):
    inner = testing.parameterize({'a': 1}, {'a': 2})(case_class(module))
    testing.parameterize({'b': 'x'})(inner)
    assert generated_names(module) == [
        "TestFoo_param_0_{a=1}_param_0_{b='x'}",
        "TestFoo_param_1_{a=2}_param_0_{b='x'}",
    ]


def test_failure_reports_the_parameters(module):
    def test_fails(self):
        assert self.a == 0, 'a is not 0'
    testing.parameterize({'a': 5})(case_class(module, test_fails=test_fails))
    cls, = [getattr(module, n) for n in generated_names(module)]
    with pytest.raises(AssertionError, match='a is not 0') as info:
        cls('test_fails').test_fails()
    assert info.value.__notes__ == [
        'Parameterized test failed.\n\nBase test method: TestFoo.test_fails'
        '\nTest parameters:\n  a: 5']


def test_str_of_a_unittest_case_shows_the_parameters(module):
    testing.parameterize({'a': 5})(case_class(module))
    cls, = [getattr(module, n) for n in generated_names(module)]
    assert str(cls('test_nothing')).endswith("  parameter: {'a': 5}")


def test_rejects_non_dict_parameters():
    with pytest.raises(TypeError, match='must be a dict'):
        testing.parameterize([('a', 1)])


def test_rejects_what_is_not_a_class():
    with pytest.raises(TypeError, match='parameterize: expected a test'):
        testing.parameterize({'a': 1})(lambda: None)


def test_pytest_collects_only_generated_classes(run_pytest):
    outcomes = run_pytest('''
        import unittest
        from kusari.autograd import testing

        @testing.parameterize(*testing.product({'x': [1, 2]}))
        class TestCase(unittest.TestCase):
            def test_one(self):
                assert self.x == 1

        @testing.parameterize({'x': 1}, {'x': 2})
        class TestPlain:
            def test_one(self, tmp_path):
                assert self.x == 1 and tmp_path.is_dir()
    ''')
    assert outcomes.of('passed') == ['TestCase_param_0_{x=1}::test_one',
                                     'TestPlain_param_0_{x=1}::test_one']
    assert outcomes.of('failure') == ['TestCase_param_1_{x=2}::test_one',
                                      'TestPlain_param_1_{x=2}::test_one']
    assert 'Test parameters:\n  x: 2' in outcomes[
        'TestPlain_param_1_{x=2}::test_one'][1]


def test_product_of_a_dict_varies_the_last_sorted_key_fastest():
    assert testing.product({'b': [1, 2], 'a': ['x', 'y']}) == [
        {'a': 'x', 'b': 1}, {'a': 'x', 'b': 2},
        {'a': 'y', 'b': 1}, {'a': 'y', 'b': 2}]


def test_product_of_lists_of_dicts_merges_one_dict_of_each():
    assert testing.product([
        [{'a': 1, 'b': 2}, {'a': 3, 'b': 4}],
        [{'c': 5}, {'c': 6}],
    ]) == [{'a': 1, 'b': 2, 'c': 5}, {'a': 1, 'b': 2, 'c': 6},
           {'a': 3, 'b': 4, 'c': 5}, {'a': 3, 'b': 4, 'c': 6}]


def test_product_splits_a_key_naming_several_parameters():
    assert testing.product({'z': [0, 1], 'a,b': [(1, 2), (3, 4)]}) == [
        {'a': 1, 'b': 2, 'z': 0}, {'a': 1, 'b': 2, 'z': 1},
        {'a': 3, 'b': 4, 'z': 0}, {'a': 3, 'b': 4, 'z': 1}]
    with pytest.raises(ValueError, match='product: each value must be a '
                                         'tuple of 2'):
        testing.product({'a,b': [(1, 2, 3)]})


def test_product_dict_lets_later_dicts_win():
    assert testing.product_dict(
        [{'a': 1}, {'a': 2}], [{'a': 3, 'b': 4}]
    ) == [{'a': 3, 'b': 4}, {'a': 3, 'b': 4}]
    assert testing.product_dict([{'a': 1}], [{'b': 2}, {'b': 3}]) == [
        {'a': 1, 'b': 2}, {'a': 1, 'b': 3}]


@pytest.mark.parametrize('bad', [
    {'a': 1}, {'a': 'xy'}, 'ab', [{'a': 1}], [[1]],
])
def test_product_rejects_malformed_parameters(bad):
    with pytest.raises(TypeError, match='product: '):
        testing.product(bad)


@hypothesis.given(st.dictionaries(
    st.text(st.characters(exclude_characters=','), min_size=1, max_size=3),
    st.lists(st.integers(), min_size=1, max_size=3, unique=True),
    max_size=3))
def test_product_lists_every_combination_once(choices):
    result = testing.product(choices)
    assert len(result) == numpy.prod([len(v) for v in choices.values()])
    assert len({tuple(sorted(d.items())) for d in result}) == len(result)
    assert all(d.keys() == choices.keys()
               and all(d[k] in choices[k] for k in d) for d in result)


def test_pytest_style_names_and_values(module):
    assert testing.from_pytest_parameterize('a, b', [(1, 2), [3, 4]]) == [
        {'a': 1, 'b': 2}, {'a': 3, 'b': 4}]
    # One name takes each value whole, tuples included.
    assert testing.from_pytest_parameterize('a', [(1, 2), 3]) == [
        {'a': (1, 2)}, {'a': 3}]
    testing.parameterize_pytest('a,b', [(1, 'x')])(case_class(module))
    assert generated_names(module) == ["TestFoo_param_0_{a=1, b='x'}"]


@pytest.mark.parametrize('names, values, error', [
    (['a'], [1], TypeError),
    ('a', 1, TypeError),
    ('a,b', [(1,)], ValueError),
    ('a,b', [1], ValueError),
])
def test_pytest_style_rejects_malformed_arguments(names, values, error):
    with pytest.raises(error, match='from_pytest_parameterize'):
        testing.from_pytest_parameterize(names, values)


def test_product_dict_orig_is_product_dict_for_chainers_conftest():
    # Chainer's conftest restores testing.product_dict from this name.
    assert parameterized._product_dict_orig is testing.product_dict
def test_product_of_a_key_naming_several_parameters():
    # 'a,b' chooses both together (Chainer's form).
    params = testing.product({'a,b': [(1, 2), (3, 4)], 'c': [5]})
    assert params == [{'a': 1, 'b': 2, 'c': 5}, {'a': 3, 'b': 4, 'c': 5}]
    with pytest.raises(ValueError, match="'a,b'"):
        testing.product({'a,b': [(1, 2, 3)]})
