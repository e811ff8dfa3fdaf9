"""Numba for loops Kusari writes at run time: imported at the first loop,
not with the package, and the machine code cached in the user's cache
directory.

An optimizer's fused update and a static graph's fused elementwise chain
are Python source made at run time; where Numba is installed (the ``jit``
extra of kusari-autograd and kusari-training) they are compiled by it.
Importing Numba takes about 0.4 s, so it happens at the first loop. Where
Numba is missing, ``NUMBA_DISABLE_JIT`` is set, or it does not support
the installed NumPy (it raises ImportError then), :func:`numba_module`
gives None and the caller keeps its NumPy path.
"""
import hashlib
import os

import numpy

_numba = None  # the module, False where it cannot be used, None: not tried


def numba_module():
    """Numba, imported on the first call; None where it cannot be used."""
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
    return _numba or None


def compile_function(source, name):
    """The function ``name`` of ``source`` (Python source, which may
    use ``numpy``) compiled by :func:`numba.njit`, in
    NumPy's error model (a division by zero gives inf, no exception).
    Numba must be available (see :func:`numba_module`)."""
    numba = numba_module()
    path = _source_file(source, name)
    # A function loaded from Numba's cache finds its globals in the
    # module it names: this one, which has numpy too.
    namespace = {'numpy': numpy, '__name__': __name__}
    exec(compile(source, path or f'<{name}>', 'exec'), namespace)
    options = dict(nogil=True, error_model='numpy')
    try:
        return numba.njit(namespace[name], cache=path is not None,
                          **options)
    except RuntimeError:  # no writable directory for the cache
        return numba.njit(namespace[name], **options)


def _source_file(source, name):
    """A file holding ``source`` (Numba caches only functions with one),
    named after ``name`` and the source's hash; None where none can be
    written."""
    directory = os.path.join(
        os.environ.get('XDG_CACHE_HOME') or os.path.expanduser(
            os.path.join('~', '.cache')), 'kusari', 'numba')
    digest = hashlib.sha256(source.encode()).hexdigest()[:24]
    path = os.path.join(directory, f'{name}_{digest}.py')
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
