"""A parameter shaped like ``x.shape[1:1 + p.ndim]``, broadcast over the
batch axis and the trailing axes (prelu's W, swish's beta)."""
from kusari.autograd.functions.array.broadcast import sum_to
from kusari.autograd.functions.array.reshape import reshape
from kusari.autograd.utils import type_check


def check_types(in_types, names):
    """Type-check ``(x, parameter)``: float x, parameter of x's dtype and
    of the shape of the axes of x after the first."""
    type_check.argname(in_types, names)
    x_type, p_type = in_types
    type_check.expect(
        x_type.dtype.kind == 'f',
        p_type.dtype == x_type.dtype,
        x_type.ndim >= p_type.ndim + 1,
    )
    p_ndim = type_check.eval(p_type.ndim)
    type_check.expect(x_type.shape[1:1 + p_ndim] == p_type.shape)


def extended_shape(p_shape, x_ndim):
    """The parameter's shape with length-one axes added, so that it
    broadcasts against x."""
    return (1,) + tuple(p_shape) + (1,) * (x_ndim - 1 - len(p_shape))


def extend(p, x):
    """The array p reshaped to broadcast against the array x."""
    return p.reshape(extended_shape(p.shape, x.ndim))


def reduce_axes(p_ndim, x_ndim):
    """The axes of x that a gradient w.r.t. the parameter sums over."""
    return (0,) + tuple(range(1 + p_ndim, x_ndim))


def extend_variable(p, x_ndim):
    """The Variable p reshaped to broadcast against an x of ``x_ndim``."""
    return reshape(p, extended_shape(p.shape, x_ndim))


def sum_to_parameter(g, p_shape):
    """The Variable g (of x's shape) summed down to the parameter's
    shape."""
    return reshape(sum_to(g, extended_shape(p_shape, g.ndim)), p_shape)
