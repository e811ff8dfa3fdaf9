"""What the connection layers share: checked geometry arguments, the
optional bias, the short constructor forms, and the check that makes a
lazily shaped parameter fail clearly on an input of the wrong ndim."""
import operator

from kusari.array import initializers
from kusari.autograd.utils import int_tuples
from kusari.autograd.utils import type_check
from kusari.autograd.variable import Parameter


def ntuple(layer_name, arg_name, value, ndim, minimum):
    """``value`` (an int or a sequence of ``ndim`` ints, each at least
    ``minimum``) as a tuple of ``ndim`` ints; a clear error otherwise."""
    return int_tuples.expand(layer_name, arg_name, value, ndim, minimum)


def positive_int(layer_name, arg_name, value, allow_none=False):
    """``value`` as a positive int (or None if ``allow_none``)."""
    if value is None and allow_none:
        return None
    try:
        if isinstance(value, bool):
            raise TypeError
        number = operator.index(value)
    except TypeError:
        number = 0
    if number < 1:
        raise ValueError(
            f'{layer_name}: {arg_name} must be a positive int'
            f'{" or None" if allow_none else ""}; got {value!r}')
    return number


def shift_short_form(in_channels, out_channels, ksize):
    """``Layer(out_channels, ksize)`` stands for ``Layer(None,
    out_channels, ksize)``: the input channels are inferred."""
    if ksize is None:
        return None, in_channels, out_channels
    return in_channels, out_channels, ksize


def parameter(initializer, shape=None):
    """A Parameter filled by ``initializer`` (None: LeCun normal); an
    array is copied into the configured dtype, as any initializer is.
    ``shape`` None leaves it lazy."""
    return Parameter(initializers.get_initializer(initializer), shape)


def bias(nobias, initial_bias, shape=None):
    """The bias Parameter (zeros unless ``initial_bias`` says otherwise),
    or None with ``nobias``."""
    if nobias:
        return None
    return parameter(0 if initial_bias is None else initial_bias, shape)


class InputCountError(ValueError, AssertionError):
    """A link given the wrong number of inputs for how it was built; an
    AssertionError too, as Chainer asserts the count in debug mode."""


def operands(link, xs, param_name, shape_arg):
    """The operands ``(x, p)`` of a link (Bias, Scale) that applies its
    parameter ``param_name`` to one input ``x`` or, built without it
    (``shape_arg`` None), applies a second input ``y`` to ``x``."""
    if param_name in link._params:
        if len(xs) == 1:
            return xs[0], getattr(link, param_name)
        expected = f'one input x: it has the parameter {param_name}'
    else:
        if len(xs) == 2:
            return xs
        expected = (f'two inputs (x, y): it was built without {shape_arg}, '
                    f'so it has no parameter {param_name}')
    raise InputCountError(
        f'{link._describe()}: expected {expected}; got {len(xs)} inputs')


def expect_ndim(link, x, ndim, layout):
    """Before a lazy parameter takes its shape from ``x``: raise, naming
    the link and the shapes, unless ``x`` has ``ndim`` axes. The error is
    the InvalidType that the layer's function would raise in Chainer,
    which shapes the parameter first."""
    actual = getattr(x, 'ndim', None)
    if actual != ndim:
        raise type_check.InvalidType(
            f'x.ndim == {ndim}', f'x.ndim = {actual}',
            f'{link._describe()}: cannot infer the input size from x of '
            f'shape {getattr(x, "shape", None)}: expected {ndim} axes '
            f'{layout}')


def expect_channels(link, in_channels, groups):
    """The channel count must split into ``groups`` groups."""
    if in_channels % groups:
        raise ValueError(
            f'{link._describe()}: {in_channels} input channels cannot be '
            f'split into groups={groups} groups')
