import json

import pytest

from kusari.autograd import testing


def test_patch_records_calls_and_still_calls_the_target():
    with testing.patch('json.dumps') as dumps:
        assert json.dumps([1]) == '[1]'
        assert json.dumps({}) == '{}'
    assert dumps.call_count == 2
    dumps.assert_called_with({})
    assert json.dumps([2]) == '[2]'  # restored


def test_patch_wraps_what_it_is_given():
    with testing.patch('json.dumps', wraps=lambda obj: 'x') as dumps:
        assert json.dumps([1]) == 'x'
    dumps.assert_called_once_with([1])


@pytest.mark.parametrize('target, match', [
    ('no_such_module_kusari.f', 'no imported module'),
    ('json.no_such_function', 'names nothing'),
])
def test_patch_rejects_unknown_targets(target, match):
    with pytest.raises(ValueError, match=f'patch: .*{match}'):
        testing.patch(target)
