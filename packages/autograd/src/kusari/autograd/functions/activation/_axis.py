"""The ``axis`` argument of softmax, log_softmax, crelu and maxout."""
import operator

from kusari.autograd import function_node
from kusari.autograd.functions.math.exponential import check_float_input
from kusari.autograd.utils import type_check


def check_int_axis(func_name, axis):
    """Return ``axis`` as an int, or raise TypeError naming the function."""
    if isinstance(axis, bool):
        raise TypeError(f'{func_name}: axis must be an int, got bool')
    try:
        return operator.index(axis)
    except TypeError:
        raise TypeError(f'{func_name}: axis must be an int, got '
                        f'{type(axis).__name__}') from None


def expect_axis_in_range(x_type, axis):
    """Type-check that x has the (possibly negative) axis ``axis``."""
    if axis >= 0:
        type_check.expect(x_type.ndim > axis)
    else:
        type_check.expect(x_type.ndim >= -axis)


class AxisFunction(function_node.FunctionNode):
    """A function of one float array along one of its axes."""

    def __init__(self, axis):
        self.axis = axis

    def check_type_forward(self, in_types):
        check_float_input(in_types)
        expect_axis_in_range(in_types[0], self.axis)


def shifted_by_max(x, axis):
    """``x - max(x)`` along ``axis`` (a new array): the stable start of
    softmax and log_softmax. Empty along ``axis``: an empty copy."""
    if x.shape[axis] == 0:
        return x.copy()
    return x - x.max(axis=axis, keepdims=True)
