"""The shared shape of the evaluation functions: checked array inputs,
and results wrapped as Variables that record no graph (metrics are not
differentiable)."""
from kusari.autograd.utils import type_check
from kusari.autograd.utils.array import force_array
from kusari.autograd.variable import Variable
from kusari.autograd.variable import as_array


def checked_arrays(func_name, names, inputs, check):
    """The arrays of ``inputs`` (Variables or arrays), after
    ``check(in_types)`` passed; the InvalidType raised otherwise names the
    function and its arguments."""
    arrays = tuple(as_array(x) for x in inputs)
    for name, array in zip(names, arrays):
        if not (hasattr(array, 'shape') and hasattr(array, 'dtype')):
            raise type_check.not_an_array(func_name, name, array)
    type_check.check_types(check, arrays, func_name, names)
    return arrays


def result(array, dtype=None):
    """``array`` (a 0-d result stays an array) as a Variable needing no
    gradient."""
    return Variable(force_array(array, dtype), requires_grad=False)


def expect_class_scores(y_type, t_type):
    """y ``(N, C, ...)`` float scores for labels t ``(N, ...)``."""
    type_check.expect(y_type.dtype.kind == 'f', t_type.dtype.kind == 'i',
                      y_type.ndim == t_type.ndim + 1)
    type_check.expect(y_type.shape[0] == t_type.shape[0],
                      y_type.shape[2:] == t_type.shape[1:])
