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
package (it takes about 0.4 s). Without it, with ``NUMBA_DISABLE_JIT``, or
where it does not support the installed NumPy (it raises ImportError then),
the rules keep their NumPy updates; so do float16 parameters and arrays
that are not C-contiguous. A loop's source is written to a file in the
user's cache directory, which lets Numba cache its machine code there.
"""
import hashlib
import os

import numpy

_compiled = {}  # loop source -> compiled function
_numba = None  # the module, False where it cannot be used, None: not tried


def run(source, arrays, scalars):
    """Run the loop of ``source`` (a Numba source of
    :class:`~._formula.Program`) on ``arrays`` (the gradient first, then
    the arrays it updates in place) and ``scalars`` (cast to the arrays'
    dtype). Returns False, having done nothing, where the loop cannot run:
    the caller then takes its NumPy path."""
    if _numba is False:
        return False
    dtype = arrays[0].dtype
    if dtype not in (numpy.float32, numpy.float64) or not all(
            type(a) is numpy.ndarray and a.dtype == dtype
            and a.flags.c_contiguous for a in arrays):
        return False
    kernel = _compiled.get(source)
    if kernel is None:
        numba = _load_numba()
        if not numba:
            return False
        kernel = _compiled[source] = _compile(numba, source)
    cast = dtype.type
    kernel(*[a.reshape(-1) for a in arrays], *[cast(s) for s in scalars])
    return True


def _load_numba():
    global _numba
    if _numba is None:
        try:
            import numba
        except ImportError:
            numba = False
        else:
            if numba.config.DISABLE_JIT:
                numba = False
        _numba = numba
    return _numba


def _compile(numba, source):
    path = _source_file(source)
    # A function loaded from Numba's cache finds its globals in the
    # module it names: this one, which has numpy too.
    namespace = {'numpy': numpy, '__name__': __name__}
    exec(compile(source, path or '<update formula>', 'exec'), namespace)
    options = dict(nogil=True, error_model='numpy')
    try:
        return numba.njit(namespace['update'], cache=path is not None,
                          **options)
    except RuntimeError:  # no writable directory for the cache
        return numba.njit(namespace['update'], **options)


def _source_file(source):
    """A file holding ``source`` (Numba caches only functions with one),
    named after its hash; None where none can be written."""
    directory = os.path.join(
        os.environ.get('XDG_CACHE_HOME') or os.path.expanduser(
            os.path.join('~', '.cache')), 'kusari', 'numba')
    digest = hashlib.sha256(source.encode()).hexdigest()[:24]
    path = os.path.join(directory, f'update_{digest}.py')
    if os.path.exists(path):  # rewriting it would void Numba's cache
        return path
    try:
        os.makedirs(directory, exist_ok=True)
        partial = f'{path}.{os.getpid()}'
        with open(partial, 'w') as file:
            file.write(source)
        os.replace(partial, path)
    except OSError:
        return None
    return path
