"""Sums over the trailing axes of an array by one matrix-vector product.

NumPy reduces the rows of a C-contiguous array one row at a time: for short
rows (tens to hundreds of elements: a softmax over a sequence, the
statistics of a layer normalization) that costs several times as much as
the BLAS product of the array, viewed as a matrix of rows, with a vector
of ones (a 64x64x64 float32 array summed over its last axis: 112 us
against 19 us on one thread).
"""
import math

import numpy

_BLAS_DTYPES = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))


def sum_keepdims(x, axes, dtype=None):
    """``x.sum(axis=axes, keepdims=True, dtype=dtype)`` for an array
    ``x``; by BLAS where ``axes`` (ints, possibly negative) are the
    trailing axes of a non-empty C-contiguous float32 or float64 NumPy
    array summed in its own dtype."""
    ndim = x.ndim
    axes = tuple(sorted(axis % ndim for axis in axes)) if ndim else ()
    lead = ndim - len(axes)
    if type(x) is numpy.ndarray and x.dtype in _BLAS_DTYPES and \
            dtype in (None, x.dtype) and x.size and lead < ndim and \
            axes == tuple(range(lead, ndim)) and x.flags.c_contiguous:
        n = math.prod(x.shape[lead:])
        sums = x.reshape(-1, n) @ numpy.ones(n, x.dtype)
        return sums.reshape(x.shape[:lead] + (1,) * len(axes))
    return x.sum(axis=axes, keepdims=True, dtype=dtype)
