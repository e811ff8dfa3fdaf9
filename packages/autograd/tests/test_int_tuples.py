"""int_tuples.expand: an int, or one int per axis, as a checked tuple."""
import numpy
import pytest

from kusari.autograd.utils import int_tuples


@pytest.mark.parametrize('value, expected', [
    (2, (2, 2, 2)), ((1, 2, 3), (1, 2, 3)), ([1, 2, 3], (1, 2, 3)),
    (numpy.int64(4), (4, 4, 4)),
])
def test_expand_gives_one_int_per_axis(value, expected):
    assert int_tuples.expand('f', 'stride', value, 3, 1) == expected


@pytest.mark.parametrize('value', [True, 1.5, (1, 2), (1, 2, 3, 4), 'ab'])
def test_expand_refuses_what_is_not_ints_of_the_length(value):
    with pytest.raises(TypeError, match=r'^f: pad must be an int or a '
                                        r'sequence of 3 ints; got '):
        int_tuples.expand('f', 'pad', value, 3, 0)


def test_expand_checks_the_minimum_unless_none():
    with pytest.raises(ValueError, match='f: pad must be at least 0'):
        int_tuples.expand('f', 'pad', (0, -1), 2, 0)
    assert int_tuples.expand('f', 'shift', -3, 2, None) == (-3, -3)
