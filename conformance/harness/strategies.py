"""Hypothesis strategies of the conformance records: shapes, dtypes, values.

Shapes include zero-size ones, but rarely: the zero-size check draws each
record's own strategy inside :func:`zero_size_shapes`, where every shape
drawn from :func:`shapes` has a zero-length axis. Values are NumPy arrays,
float64 unless a dtype is asked for (the checks cast them to the dtype
under test), and can be kept away from a function's kinks.
"""
import contextlib
import contextvars

import numpy
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

FLOAT_DTYPES = tuple(numpy.dtype(t) for t in ('float16', 'float32',
                                              'float64'))

_zero_size = contextvars.ContextVar('zero_size', default=False)


@contextlib.contextmanager
def zero_size_shapes():
    """Within this context, :func:`shapes` draws only zero-size shapes
    (where its bounds allow a zero side and a dimension)."""
    token = _zero_size.set(True)
    try:
        yield
    finally:
        _zero_size.reset(token)


def shapes(min_dims=0, max_dims=4, min_side=0, max_side=5):
    """Array shapes, zero-size ones included.

    A zero side is drawn for about one shape in ten (where ``min_side`` is
    0), so that most examples have elements to differentiate.
    """
    if not 0 <= min_dims <= max_dims:
        raise ValueError(f'shapes: need 0 <= min_dims <= max_dims, got '
                         f'{min_dims} and {max_dims}')
    if not 0 <= min_side <= max_side:
        raise ValueError(f'shapes: need 0 <= min_side <= max_side, got '
                         f'{min_side} and {max_side}')
    return _shapes(min_dims, max_dims, min_side, max_side)


@st.composite
def _shapes(draw, min_dims, max_dims, min_side, max_side):
    can_be_empty = min_side == 0 and max_dims > 0
    if _zero_size.get() and can_be_empty:
        ndim = draw(st.integers(max(min_dims, 1), max_dims))
        shape = draw(_sides(ndim, min_side, max_side))
        shape[draw(st.integers(0, ndim - 1))] = 0
        return tuple(shape)
    ndim = draw(st.integers(min_dims, max_dims))
    allow_zero = can_be_empty and draw(st.integers(0, 9)) == 0
    return tuple(draw(_sides(ndim, min_side if allow_zero else
                             max(min_side, 1), max_side)))


def _sides(ndim, min_side, max_side):
    return st.lists(st.integers(min_side, max_side), min_size=ndim,
                    max_size=ndim)


@st.composite
def broadcastable_shapes(draw, shape):
    """Shapes that broadcast to ``shape``: leading axes dropped, sides
    replaced by 1."""
    shape = tuple(shape)
    kept = shape[draw(st.integers(0, len(shape))):]
    ones = draw(st.lists(st.booleans(), min_size=len(kept),
                         max_size=len(kept)))
    return tuple(1 if one else side for side, one in zip(kept, ones))


@st.composite
def mutually_broadcastable(draw, n, shape=None):
    """``n`` shapes whose broadcast is exactly ``shape``.

    Args:
        n: how many shapes (at least 1).
        shape: the common shape, a tuple or a strategy of them; drawn from
            :func:`shapes` when None.

    Returns:
        A strategy of tuples of ``n`` shapes. Each axis of ``shape`` is held
        at full length by at least one of them, so a zero-size ``shape``
        gives a zero-size operand.
    """
    if n < 1:
        raise ValueError(f'mutually_broadcastable: n must be >= 1, got {n}')
    if shape is None:
        shape = shapes()
    if isinstance(shape, st.SearchStrategy):
        shape = draw(shape)
    ndim = len(shape)
    leads = [draw(st.integers(0, ndim)) for _ in range(n)]
    leads[draw(st.integers(0, n - 1))] = 0
    operands = [[1 if draw(st.booleans()) else shape[axis]
                 for axis in range(lead, ndim)] for lead in leads]
    for axis, side in enumerate(shape):
        holders = [i for i, lead in enumerate(leads) if lead <= axis]
        if all(operands[i][axis - leads[i]] != side for i in holders):
            owner = draw(st.sampled_from(holders))
            operands[owner][axis - leads[owner]] = side
    return tuple(tuple(operand) for operand in operands)


def dtypes():
    """The float dtypes every function supports."""
    return st.sampled_from(FLOAT_DTYPES)


def floats(shape=None, dtype=numpy.float64, low=-2.0, high=2.0,
           away_from=(), margin=0.1, positive=False):
    """Float arrays with values in ``[low, high]``.

    Args:
        shape: a shape, a strategy of shapes, or None for :func:`shapes`.
        dtype: a float dtype or a strategy of them (see :func:`dtypes`).
        low, high: the range of values.
        away_from: kink points: values closer than ``margin`` to one are
            moved to ``margin`` from it (to the other side if that leaves
            the range), so finite differences never step across it.
        margin: the distance kept from kinks, and from 0 when positive.
        positive: keep values at least ``margin`` above 0.

    Returns:
        A strategy of NumPy arrays.
    """
    if positive:
        low = max(low, margin)
    if not low < high:
        raise ValueError(f'floats: need low < high, got {low} and {high}')
    kinks = sorted(away_from)
    for kink in kinks:
        if kink + margin > high and kink - margin < low:
            raise ValueError(f'floats: no room in [{low}, {high}] to keep '
                             f'{margin} away from {kink}')
    for left, right in zip(kinks, kinks[1:]):
        if right - left < 2 * margin:
            raise ValueError(f'floats: kinks {left} and {right} are closer '
                             f'than twice the margin {margin}')
    if shape is None:
        shape = shapes()
    elif not isinstance(shape, st.SearchStrategy):
        shape = st.just(tuple(shape))
    if not isinstance(dtype, st.SearchStrategy):
        dtype = st.just(numpy.dtype(dtype))
    values = hnp.arrays(numpy.float64, shape,
                        elements=st.floats(low, high))
    if kinks:
        values = values.map(
            lambda x: _keep_away(x, kinks, margin, low, high))
    return st.tuples(values, dtype).map(lambda pair: pair[0].astype(pair[1]))


def _keep_away(x, kinks, margin, low, high):
    x = x.copy()
    for kink in kinks:
        near = abs(x - kink) < margin
        side = numpy.where(x >= kink, 1.0, -1.0)
        moved = kink + side * margin
        moved = numpy.where((moved < low) | (moved > high),
                            kink - side * margin, moved)
        x[near] = moved[near]
    return x


@st.composite
def broadcast_floats(draw, *options):
    """A tuple of float arrays of mutually broadcastable shapes, one per
    dict of :func:`floats` options (for broadcasting operators)."""
    operand_shapes = draw(mutually_broadcastable(len(options)))
    return tuple(draw(floats(shape=shape, **option))
                 for shape, option in zip(operand_shapes, options))


def some_broadcast_floats(least, most):
    """Between ``least`` and ``most`` float arrays of mutually
    broadcastable shapes (for functions of any number of inputs)."""
    return st.integers(least, most).flatmap(
        lambda n: broadcast_floats(*[{}] * n))


@st.composite
def large_floats(draw, shape=None, least=10.0, most=30.0):
    """Float arrays of magnitudes in ``[least, most]``, of either sign:
    where a naive formula (``exp(x)`` in float16 overflows above 11)
    breaks, a function computed with care still gives its values."""
    magnitude = draw(floats(shape=shape, low=least, high=most))
    signs = draw(hnp.arrays(numpy.bool_, magnitude.shape))
    return numpy.where(signs, -magnitude, magnitude)
