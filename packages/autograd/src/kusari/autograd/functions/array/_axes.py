"""Argument checks shared by the array functions: integers, axes and
sequences of inputs."""
import numbers
import operator

from kusari.autograd import function_node
from kusari.autograd.utils import type_check


def check_int(func_name, arg_name, value, minimum=None):
    """``value`` as an int; raise naming the function and argument if it
    is not an integer (bools excluded) or is below ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f'{func_name}: {arg_name} must be an int, got '
                        f'{value!r} ({type(value).__name__})')
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f'{func_name}: {arg_name} must be >= {minimum}, '
                         f'got {value}')
    return value


def check_positive(func_name, arg_name, value):
    """``value`` (anything with ``__index__``) as a positive int; raise
    naming the function and argument otherwise."""
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f'{func_name}: {arg_name} must be an int, got '
                        f'{type(value).__name__}') from None
    if value <= 0:
        raise ValueError(f'{func_name}: {arg_name} must be positive, got '
                         f'{value}')
    return value


def check_ints(func_name, arg_name, values, minimum=None):
    """A tuple of ints from an int or a sequence of them."""
    if isinstance(values, numbers.Integral) and not isinstance(values, bool):
        values = (values,)
    try:
        values = tuple(values)
    except TypeError:
        raise TypeError(f'{func_name}: {arg_name} must be an int or a '
                        f'sequence of ints, got {values!r}') from None
    return tuple(check_int(func_name, arg_name, v, minimum) for v in values)


def normalize_axis(func_name, arg_name, axis, ndim, extra=0):
    """``axis`` in ``[0, ndim + extra)``; negative axes count from the end.

    ``extra=1`` admits the position after the last axis (where
    expand_dims or stack insert one). Raises InvalidType when out of range.
    """
    axis = check_int(func_name, arg_name, axis)
    size = ndim + extra
    if not -size <= axis < size:
        raise type_check.InvalidType(
            f'{-size} <= {arg_name} < {size}', f'{arg_name} = {axis}',
            f'{func_name}: {arg_name} must be in [{-size}, {size}) for an '
            f'input of ndim {ndim}; got {axis}')
    return axis % size


def normalize_axes(func_name, arg_name, axes, ndim):
    """A tuple of distinct axes in ``[0, ndim)`` from an int or ints."""
    axes = check_ints(func_name, arg_name, axes)
    axes = tuple(normalize_axis(func_name, arg_name, a, ndim) for a in axes)
    if len(set(axes)) != len(axes):
        raise ValueError(f'{func_name}: {arg_name} repeats an axis: '
                         f'{axes}')
    return axes


def expect_axis(x_type, axis, arg_name='axis', extra=0):
    """Type-check that ``axis`` (an int) is an axis of ``x`` (or, with
    ``extra=1``, the position after its last axis)."""
    shown = type_check.make_variable(axis, arg_name)
    bound = x_type.ndim + extra if extra else x_type.ndim
    if axis >= 0:
        type_check.expect(shown < bound)
    else:
        type_check.expect(-shown <= bound)


def name_sequence(in_types, name):
    """Name inputs ``xs[0]``, ``xs[1]``... in type-check messages."""
    if not type_check.in_light_mode():
        type_check.argname(in_types,
                           tuple(f'{name}[{i}]' for i in range(len(in_types))))


def expect_sequence(in_types):
    """Check that a sequence ``xs`` of inputs is not empty, naming them in
    messages; returns the type of ``xs[0]``."""
    type_check.expect(in_types.size() > 0)
    name_sequence(in_types, 'xs')
    return in_types[0]


class AlongAxis(function_node.FunctionNode):
    """A node of one input ``x`` that works along one of its axes,
    ``axis`` (an int, negative from the end)."""

    def __init__(self, axis):
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        expect_axis(in_types[0], self.axis)
