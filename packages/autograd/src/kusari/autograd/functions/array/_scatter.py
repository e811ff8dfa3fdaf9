"""Unbuffered scatter-add on NumPy and CuPy arrays."""
import numpy


def scatter_add(target, index, values):
    """``target[index] += values``, accumulating repeated indices, in
    place (``numpy.add.at`` / ``cupyx.scatter_add``)."""
    if isinstance(target, numpy.ndarray):
        numpy.add.at(target, index, values)
    else:
        import cupyx
        cupyx.scatter_add(target, index, values)
    return target
