"""Fused CPU updates, compiled by Numba where it is installed (the ``jit``
extra of kusari-training).

A rule's NumPy update is a sequence of in-place ufunc calls, each a pass
over parameter-sized arrays; its kernel here makes one pass. A kernel does
the same float operations as the ufunc sequence, in the same order and
dtype (Numba's default: no fast-math, so no reassociation and no fused
multiply-add), so both paths give the same bits. Adam on the 1.8 M
parameters of bench/mlp.py: 0.75 ms per update against 2.6 ms.

Numba is imported at the first update that could use it, not with the
package (it takes about 0.4 s). Without it, with ``NUMBA_DISABLE_JIT``, or
where it does not support the installed NumPy (it raises ImportError then),
the rules keep their NumPy updates; so do float16 parameters and arrays
that are not C-contiguous.
"""
import numpy

_compiled = {}
_numba = None  # the module, False where it cannot be used, None: not tried


def run(name, arrays, scalars):
    """Run the kernel ``name`` on ``arrays`` (the gradient first, then the
    arrays it updates in place) and ``scalars`` (cast to the arrays'
    dtype; bools stay flags). Returns False, having done nothing, where the
    kernel cannot run: the caller then takes its NumPy path."""
    dtype = arrays[0].dtype
    if dtype not in (numpy.float32, numpy.float64) or not all(
            type(a) is numpy.ndarray and a.dtype == dtype
            and a.flags.c_contiguous for a in arrays):
        return False
    kernel = _kernel(name)
    if kernel is None:
        return False
    cast = dtype.type
    kernel(*[a.reshape(-1) for a in arrays],
           *[s if isinstance(s, bool) else cast(s) for s in scalars])
    return True


def _kernel(name):
    kernel = _compiled.get(name)
    if kernel is None:
        numba = _load_numba()
        if not numba:
            return None
        options = dict(nogil=True, error_model='numpy')
        try:
            kernel = numba.njit(_KERNELS[name], cache=True, **options)
        except RuntimeError:  # no writable directory for the cache
            kernel = numba.njit(_KERNELS[name], **options)
        _compiled[name] = kernel
    return kernel


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


def _adam(grad, param, m, v, vhat, alpha_t, one_minus_beta1,
          one_minus_beta2, eps, eta, decay, lower, upper, amsgrad,
          adabound):
    """:class:`~kusari.training.optimizers.AdamRule`'s update; ``vhat`` is
    read and written only with ``amsgrad``, the bounds only with
    ``adabound``; ``decay`` is ``1 - eta * weight_decay_rate``."""
    for i in range(grad.size):
        g = grad[i]
        m_i = m[i] + one_minus_beta1 * (g - m[i])
        v_i = v[i] + one_minus_beta2 * (g * g - v[i])
        m[i] = m_i
        v[i] = v_i
        if amsgrad:
            v_i = numpy.maximum(vhat[i], v_i)
            vhat[i] = v_i
        step = alpha_t / (numpy.sqrt(v_i) + eps)
        if adabound:
            step = numpy.minimum(numpy.maximum(step, lower), upper)
        param[i] = param[i] * decay - step * m_i * eta


_KERNELS = {'adam': _adam}
