"""A matrix product added into an array in place (``c += a^T b``) by the
BLAS that NumPy itself calls.

NumPy's ``matmul`` has no such form (GEMM's ``beta``): it writes a new
product, which then takes a second pass to add. SciPy's BLAS has it, but
SciPy's wheels bring another OpenBLAS than NumPy's, with a thread pool of
its own: a training step that calls both keeps two pools of busy-waiting
threads on the same cores, and they fight (a 2-layer LSTM language model
ran 6x slower on two threads than on one). So the product goes to the
``gemm`` of NumPy's own library, looked up by name among the libraries
NumPy's extension module loaded. Only names that tell their integer width
are called: those of the OpenBLAS builds in NumPy's wheels
(``scipy_openblas``) and ``64_``-suffixed ILP64 CBLAS. Where none is found
(another BLAS, or a platform whose loader does not search a library's
dependencies), :func:`gemm_add` returns False and the caller adds a NumPy
product instead.
"""
import ctypes

import numpy

# (prefix, suffix) of ``cblas_?gemm`` with the integer type the name implies.
_NAMES = ((('scipy_', '64_'), ctypes.c_int64), (('', '64_'), ctypes.c_int64),
          (('scipy_', ''), ctypes.c_int32))
_SCALARS = {numpy.dtype(numpy.float32): ('s', ctypes.c_float),
            numpy.dtype(numpy.float64): ('d', ctypes.c_double)}
_ROW_MAJOR, _NO_TRANS, _TRANS = 101, 111, 112
_MISSING = object()
_gemms = {}  # dtype: its CBLAS gemm, or None where it was not found


def gemm(dtype):
    """NumPy's CBLAS ``gemm`` of ``dtype`` (float32 or float64) as a ctypes
    function, or None where it cannot be found; looked up once."""
    function = _gemms.get(dtype, _MISSING)
    if function is _MISSING:
        function = _gemms[dtype] = _find(*_SCALARS[dtype])
    return function


def _find(letter, scalar):
    try:
        from numpy._core import _multiarray_umath
        library = ctypes.CDLL(_multiarray_umath.__file__)
    except (ImportError, OSError):
        return None
    for (prefix, suffix), integer in _NAMES:
        try:
            function = getattr(library, f'{prefix}cblas_{letter}gemm{suffix}')
        except AttributeError:
            continue
        # order, trans a, trans b, m, n, k, alpha, a, lda, b, ldb, beta,
        # c, ldc
        function.argtypes = ((ctypes.c_int,) * 3 + (integer,) * 3 + (
            scalar, ctypes.c_void_p, integer, ctypes.c_void_p, integer,
            scalar, ctypes.c_void_p, integer))
        function.restype = None
        return function
    return None


def _matrix(x):
    """``x`` (2-D) as BLAS reads it in place: ``(x, transposed, leading
    dimension)``, where ``transposed`` says its rows are contiguous in
    memory as columns; a C-contiguous copy where neither is."""
    rows, columns = x.shape
    if x.flags.c_contiguous:
        return x, False, max(1, columns)
    if x.flags.f_contiguous:
        return x, True, max(1, rows)
    step, item = x.strides, x.itemsize
    if step[1] == item and step[0] % item == 0 and \
            step[0] >= columns * item:
        return x, False, step[0] // item
    if step[0] == item and step[1] % item == 0 and step[1] >= rows * item:
        return x, True, step[1] // item
    return numpy.ascontiguousarray(x), False, max(1, columns)


def gemm_add(c, a, b):
    """``c += a^T b`` in place by one call of NumPy's BLAS: the product is
    added as it is made, no temporary and no second pass over ``c``.

    Args:
        c: C-contiguous float32 or float64 NumPy array ``(m, n)``.
        a: Matrix ``(k, m)`` of ``c``'s dtype, in any layout.
        b: Matrix ``(k, n)`` of ``c``'s dtype, in any layout.

    Returns:
        True; False, ``c`` untouched, where this cannot be done so: another
        array type or dtype, a ``c`` that is not C-contiguous or shares
        memory with ``a`` or ``b``, or NumPy's BLAS not found.
    """
    if type(c) is not numpy.ndarray or not c.flags.c_contiguous or \
            c.dtype not in _SCALARS or a.dtype != c.dtype or \
            b.dtype != c.dtype:
        return False
    function = gemm(c.dtype)
    if function is None or numpy.may_share_memory(c, a) or \
            numpy.may_share_memory(c, b):
        return False
    if 0 in (c.size, a.size, b.size):  # a^T b is zero or empty
        return True
    a, a_transposed, lda = _matrix(a)
    b, b_transposed, ldb = _matrix(b)
    k, m = a.shape
    n = b.shape[1]
    # Row-major c = 1 op(a) op(b) + 1 c, with op(a) = a^T.
    function(_ROW_MAJOR, _NO_TRANS if a_transposed else _TRANS,
             _TRANS if b_transposed else _NO_TRANS, m, n, k,
             1.0, a.ctypes.data, lda, b.ctypes.data, ldb, 1.0,
             c.ctypes.data, n)
    return True
