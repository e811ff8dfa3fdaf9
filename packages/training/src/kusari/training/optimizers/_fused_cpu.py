"""Fused CPU updates, compiled by Numba where it is installed (the ``jit``
extra of kusari-training).

A rule's NumPy update is a sequence of in-place ufunc calls, each a pass
over parameter-sized arrays; its Numba loop (made from the same formula,
see :mod:`._formula`) makes one pass. The loop does the same float
operations as the ufunc sequence, in the same order and dtype (Numba's
default: no fast-math, so no reassociation and no fused multiply-add),
so both paths give the same bits; scalars, constants too, come in the
arrays' dtype. Adam on the 1.8 M parameters of bench/mlp.py: about 0.75
ms per update against 2.6 ms.

Numba is imported at the first update that could use it, not with the
package (see :mod:`kusari.array.jit`, which also caches the loops' machine
code). Without it, the rules keep their NumPy updates; so do float16
parameters and arrays that are not C-contiguous.
"""
import numpy

from kusari.array import jit

_compiled = {}  # loop source -> compiled function


def run(source, arrays, scalars):
    """Run the loop of ``source`` (a Numba source of
    :class:`~._formula.Program`) on ``arrays`` (the gradient first, then
    the arrays it updates in place) and ``scalars`` (cast to the arrays'
    dtype). Returns False, having done nothing, where the loop cannot run:
    the caller then takes its NumPy path."""
    dtype = arrays[0].dtype
    if dtype not in (numpy.float32, numpy.float64) or not all(
            type(a) is numpy.ndarray and a.dtype == dtype
            and a.flags.c_contiguous for a in arrays) or \
            jit.numba_module() is None:
        return False
    kernel = _compiled.get(source)
    if kernel is None:
        kernel = _compiled[source] = jit.compile_function(source, 'update')
    cast = dtype.type
    kernel(*[a.reshape(-1) for a in arrays], *[cast(s) for s in scalars])
    return True

