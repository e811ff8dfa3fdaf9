"""Shared pieces of the matrix functions (inv, det, cholesky): the check
of square matrices, and LAPACK calls in a dtype it supports with errors
that name the function."""
import contextlib

import numpy

from kusari.array import backend
from kusari.autograd.utils import type_check


def check_square_matrices(in_types, ndim):
    """One float input of ``ndim`` axes whose last two are equal."""
    type_check.argname(in_types, ('a',))
    a_type, = in_types
    type_check.expect(a_type.dtype.kind == 'f', a_type.ndim == ndim)
    type_check.expect(a_type.shape[-1] == a_type.shape[-2])


def _raising(xp):
    """CuPy's linalg reports failures as NaNs unless asked to raise."""
    if xp is numpy:
        return contextlib.nullcontext()
    import cupyx
    return cupyx.errstate(linalg='raise')


def call(func_name, failure, linalg_func, a):
    """``linalg_func(a)`` computed in float32 for float16 input (LAPACK
    has no float16) and cast back; a LinAlgError is raised again naming
    ``func_name`` and saying ``failure``."""
    xp = backend.get_array_module(a)
    work = a.astype(numpy.float32) if a.dtype == numpy.float16 else a
    try:
        with _raising(xp):
            y = linalg_func(work)
    except numpy.linalg.LinAlgError as error:
        raise numpy.linalg.LinAlgError(
            f'{func_name}: {failure} ({error})') from error
    return y.astype(a.dtype, copy=False)
