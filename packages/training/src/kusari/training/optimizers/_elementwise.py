"""What the elementwise update rules share: scratch arrays for in-place CPU
updates, fused CuPy kernels for GPU ones, and hyperparameter checks.

On the CPU an update is a sequence of in-place NumPy ufunc calls; where the
formula needs a temporary it goes to a scratch array, which is reused by
every parameter and every step (one set per thread and dtype, as large as
the largest parameter), so a step allocates no array. Float16 parameters
are computed in float32, as Chainer does.

On the GPU each update is one fused ``ElementwiseKernel``: the arrays are
read once and written once. Arrays keep the parameter's dtype (``P``);
scalars and arithmetic use ``compute_t`` (float32, or float64 for float64
parameters).
"""
import threading

import numpy

from kusari.array import cuda

_local = threading.local()


def compute_dtype(dtype):
    """The dtype an update of a ``dtype`` parameter computes in."""
    return numpy.dtype(numpy.float32) if dtype == numpy.float16 \
        else numpy.dtype(dtype)


def cpu_operands(param, n_scratch):
    """The gradient of ``param`` in its compute dtype, and ``n_scratch``
    scratch arrays of its shape in that dtype (their content is garbage).
    """
    grad = param.grad
    dtype = compute_dtype(grad.dtype)
    if grad.dtype != dtype:
        grad = grad.astype(dtype)
    return grad, _scratch(grad.shape, dtype, n_scratch)


def _scratch(shape, dtype, count):
    pools = getattr(_local, 'pools', None)
    if pools is None:
        pools = _local.pools = {}
    size = 1
    for extent in shape:
        size *= extent
    pool = pools.get(dtype)
    if pool is None or pool.shape[0] < count or pool.shape[1] < size:
        rows = count if pool is None else max(count, pool.shape[0])
        width = size if pool is None else max(size, pool.shape[1])
        pool = pools[dtype] = numpy.empty((rows, width), dtype)
    return [pool[row, :size].reshape(shape) for row in range(count)]


def check_eps(rule, eps, dtype):
    """Raise if a nonzero ``eps`` underflows to zero in the compute dtype
    of ``dtype`` (the update would divide by zero)."""
    if eps != 0 and compute_dtype(dtype).type(eps) == 0:
        raise ValueError(
            f'{type(rule).__name__}: eps={eps!r} is too small for '
            f'{numpy.dtype(dtype).name} parameters (it rounds to zero)')


def fused_kernel(name, arrays_in, scalars, arrays_out, body, dtype):
    """A fused CuPy kernel updating parameter-shaped arrays (built once per
    signature, dtype and device).

    Args:
        name (str): the kernel name.
        arrays_in (tuple of str): names of the input arrays (dtype ``P``).
        scalars (tuple of str): names of the scalar inputs (``compute_t``).
        arrays_out (tuple of str): names of the arrays updated in place.
        body (str): CUDA code; it reads and writes the arrays through
            ``compute_t`` locals (``compute_t m_ = m; ... m = m_;``).
        dtype: the parameter dtype.

    Call it as ``kernel(*arrays_in, *scalars, *arrays_out)``.
    """
    compute = compute_dtype(dtype)
    c_type = 'double' if compute == numpy.float64 else 'float'
    in_params = ', '.join([f'P {array}' for array in arrays_in]
                          + [f'{compute.name} {scalar}'
                             for scalar in scalars])
    out_params = ', '.join(f'P {array}' for array in arrays_out)
    return cuda.elementwise(in_params, out_params, body, name,
                            preamble=f'typedef {c_type} compute_t;')
