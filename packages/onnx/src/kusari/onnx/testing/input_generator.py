"""Deterministic test inputs: monotonically increasing arrays."""
import numpy


def _scaled(steps, shape, dtype):
    """Integer ``steps`` scaled by ``2 / size`` into ``shape``."""
    return (steps * (2 / max(steps.size, 1))).reshape(shape).astype(dtype)


def _centered(shape):
    size = int(numpy.prod(shape))
    return numpy.arange(size) - size // 2


def increasing(*shape, dtype=numpy.float32):
    """An increasing array of ``shape`` holding zero, and negative and
    positive values where it has room, in ``[-1, 1)``."""
    return _scaled(_centered(shape), shape, dtype)


def nonzero_increasing(*shape, dtype=numpy.float32):
    """An increasing array of ``shape`` holding negative and positive
    values but no zero, in ``[-1, 1]``."""
    steps = _centered(shape)
    steps[steps >= 0] += 1
    return _scaled(steps, shape, dtype)


def positive_increasing(*shape, dtype=numpy.float32):
    """An increasing array of ``shape`` holding positive values only, in
    ``(0, 2]``."""
    return _scaled(numpy.arange(1, int(numpy.prod(shape)) + 1), shape,
                   dtype)
