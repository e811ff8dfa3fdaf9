"""Concatenation along an axis, and the stacking functions built on it."""
from kusari.autograd.functions.array import _axes
from kusari.autograd.functions.array._concat_split import Concat
from kusari.autograd.functions.array.reshape import reshape


def apply_join(node_class, func_name, xs, axis):
    """Check ``xs`` (not empty) and ``axis`` (an int), then join xs with
    ``node_class(axis)``."""
    xs = tuple(xs)
    if not xs:
        raise ValueError(f'{func_name}: xs must hold at least one array')
    axis = _axes.check_int(func_name, 'axis', axis)
    y, = node_class(axis).apply(xs)
    return y


def concat(xs, axis=1):
    """Concatenate the arrays of ``xs`` along ``axis``.

    Args:
        xs: a sequence of Variables or arrays of one dtype, with equal
            shapes except along ``axis``.
        axis: the axis to join along (negative counts from the end).

    Returns:
        Variable whose ``axis`` is the sum of the inputs' along it.
    """
    return apply_join(Concat, 'concat', xs, axis)


def concat_at_least(func_name, xs, ndim, new_shape, axis):
    """Concatenate after giving every input ``ndim`` axes or more.

    Args:
        func_name: the public function, for messages.
        xs: the inputs.
        ndim: the minimum number of axes.
        new_shape: ``new_shape(shape)`` for inputs of fewer axes.
        axis: the axis to join along, or a callable of the first input's
            ndim (after promotion) giving it.
    """
    xs = tuple(xs)
    if not xs:
        raise ValueError(f'{func_name}: xs must hold at least one array')
    xs = tuple(x if x.ndim >= ndim else reshape(x, new_shape(x.shape))
               for x in xs)
    if callable(axis):
        axis = axis(xs[0].ndim)
    y, = Concat(axis).apply(xs)
    return y
