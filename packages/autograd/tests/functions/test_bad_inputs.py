"""Wrong inputs get an InvalidType, a TypeError or a ValueError that names
the function (the generic sweep over every function is
conformance/test_bad_calls.py)."""
import numpy
import pytest

from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd.utils import type_check


@pytest.mark.parametrize('call, expect', [
    (lambda: F.embed_id(numpy.array([0.5], 'f'), numpy.ones((3, 2), 'f')),
     'x.dtype.kind in iu'),
    (lambda: -Variable(numpy.array(['a'])), 'x.dtype.kind in iufc'),
    (lambda: Variable(numpy.array([True])) * 2, 'x.dtype.kind in iufc'),
    (lambda: abs(Variable(numpy.array([object()], dtype=object))),
     'x.dtype.kind in iufc'),
])
def test_dtype_kind_conditions_fail_as_invalid_type(call, expect):
    with pytest.raises(type_check.InvalidType) as info:
        call()
    assert info.value.expect == expect
