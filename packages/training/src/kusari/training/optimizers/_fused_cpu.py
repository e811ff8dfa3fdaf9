"""Fused CPU updates, compiled by Numba where it is installed (the ``jit``
extra of kusari-training).

A rule's NumPy update is a sequence of in-place ufunc calls, each a pass
over parameter-sized arrays; its kernel here makes one pass. A kernel does
the same float operations as the ufunc sequence, in the same order and
dtype (Numba's default: no fast-math, so no reassociation and no fused
multiply-add), so both paths give the same bits. Constants, even 0 and
1, come as scalars in the arrays' dtype: Numba would compute a float32 and
an integer literal in float64. Adam on the 1.8 M parameters of
bench/mlp.py: 0.75 ms per update against 2.6 ms.

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
    global _numba, _moments
    if _numba is None:
        try:
            import numba
        except ImportError:
            numba = False
        else:
            if numba.config.DISABLE_JIT:
                numba = False
            else:  # kernels call it, so Numba must compile it too
                # (once: a reset of _numba must not wrap it twice)
                _moments = numba.njit(getattr(_moments, 'py_func', _moments))
        _numba = numba
    return _numba


def _moments(g, m, v, i, one_minus_beta1, one_minus_beta2):
    """Move the moving averages ``m`` of the gradient and ``v`` of its
    square at ``i`` to the gradient ``g`` there, as
    ``_elementwise.update_moments`` does; returns the new values."""
    m_i = m[i] + one_minus_beta1 * (g - m[i])
    v_i = v[i] + one_minus_beta2 * (g * g - v[i])
    m[i] = m_i
    v[i] = v_i
    return m_i, v_i


def _adam(grad, param, m, v, vhat, alpha_t, one_minus_beta1,
          one_minus_beta2, eps, eta, decay, lower, upper, amsgrad,
          adabound):
    """:class:`~kusari.training.optimizers.AdamRule`'s update; ``vhat`` is
    read and written only with ``amsgrad``, the bounds only with
    ``adabound``; ``decay`` is ``1 - eta * weight_decay_rate``."""
    for i in range(grad.size):
        m_i, v_i = _moments(grad[i], m, v, i, one_minus_beta1,
                            one_minus_beta2)
        if amsgrad:
            v_i = numpy.maximum(vhat[i], v_i)
            vhat[i] = v_i
        step = alpha_t / (numpy.sqrt(v_i) + eps)
        if adabound:
            step = numpy.minimum(numpy.maximum(step, lower), upper)
        param[i] = param[i] * decay - step * m_i * eta


def _sgd(grad, param, lr):
    """:class:`~kusari.training.optimizers.SGDRule`'s update."""
    for i in range(grad.size):
        param[i] = param[i] - grad[i] * lr


def _momentum_sgd(grad, param, v, lr, momentum):
    """:class:`~kusari.training.optimizers.MomentumSGDRule`'s update."""
    for i in range(grad.size):
        v_i = v[i] * momentum - grad[i] * lr
        v[i] = v_i
        param[i] = param[i] + v_i


def _corrected_momentum_sgd(grad, param, v, lr, momentum):
    """:class:`~kusari.training.optimizers.CorrectedMomentumSGDRule`'s
    update."""
    for i in range(grad.size):
        v_i = v[i] * momentum - grad[i]
        v[i] = v_i
        param[i] = param[i] + v_i * lr


def _nesterov_ag(grad, param, v, lr, momentum, momentum_squared,
                 grad_rate):
    """:class:`~kusari.training.optimizers.NesterovAGRule`'s update;
    ``grad_rate`` is ``(1 + momentum) * lr``."""
    for i in range(grad.size):
        g = grad[i]
        v_i = v[i] * momentum - g * lr
        v[i] = v_i
        param[i] = param[i] + v_i * momentum_squared - g * grad_rate


def _ada_grad(grad, param, h, lr, eps):
    """:class:`~kusari.training.optimizers.AdaGradRule`'s update."""
    for i in range(grad.size):
        g = grad[i]
        h_i = h[i] + g * g
        h[i] = h_i
        param[i] = param[i] - g * lr / (numpy.sqrt(h_i) + eps)


def _ada_delta(grad, param, msg, msdx, rho, one_minus_rho, eps):
    """:class:`~kusari.training.optimizers.AdaDeltaRule`'s update."""
    for i in range(grad.size):
        g = grad[i]
        msg_i = msg[i] * rho + g * one_minus_rho * g
        msg[i] = msg_i
        dx = numpy.sqrt((msdx[i] + eps) / (msg_i + eps)) * g
        msdx[i] = msdx[i] * rho + dx * one_minus_rho * dx
        param[i] = param[i] - dx


def _rmsprop(grad, param, ms, lr, alpha, one_minus_alpha, eps,
             eps_inside_sqrt):
    """:class:`~kusari.training.optimizers.RMSpropRule`'s update, with
    ``sqrt(ms + eps)`` or ``sqrt(ms) + eps`` as ``eps_inside_sqrt``."""
    for i in range(grad.size):
        g = grad[i]
        ms_i = ms[i] * alpha + g * one_minus_alpha * g
        ms[i] = ms_i
        if eps_inside_sqrt:
            denom = numpy.sqrt(ms_i + eps)
        else:
            denom = numpy.sqrt(ms_i) + eps
        param[i] = param[i] - g * lr / denom


def _rmsprop_graves(grad, param, n, avg, delta, lr, alpha,
                    one_minus_alpha, momentum, eps):
    """:class:`~kusari.training.optimizers.RMSpropGravesRule`'s update
    (``avg`` is its state ``g``)."""
    for i in range(grad.size):
        g = grad[i]
        scaled = g * one_minus_alpha
        avg_i = avg[i] * alpha + scaled
        n_i = n[i] * alpha + scaled * g
        avg[i] = avg_i
        n[i] = n_i
        step = g * lr / numpy.sqrt(n_i - avg_i * avg_i + eps)
        delta_i = delta[i] * momentum - step
        delta[i] = delta_i
        param[i] = param[i] + delta_i


def _smorms3(grad, param, mem, avg, avg2, lr, eps, one):
    """:class:`~kusari.training.optimizers.SMORMS3Rule`'s update (``avg``
    and ``avg2`` are its states ``g`` and ``g2``)."""
    for i in range(grad.size):
        g = grad[i]
        r = one / (mem[i] + one)
        keep = one - r
        avg_i = avg[i] * keep + r * g
        avg2_i = avg2[i] * keep + r * g * g
        avg[i] = avg_i
        avg2[i] = avg2_i
        x = avg_i * avg_i / (avg2_i + eps)
        mem[i] = mem[i] * (one - x) + one
        step = numpy.minimum(x, lr) * g / (numpy.sqrt(avg2_i) + eps)
        param[i] = param[i] - step


def _msvag(grad, param, m, v, lr, one_minus_beta, correction, rho_ratio,
           eta, decay, tiny, zero, one):
    """:class:`~kusari.training.optimizers.MSVAGRule`'s update; ``decay``
    is ``1 - eta * weight_decay_rate``, ``rho_ratio`` ``rho / (1 - rho)``,
    ``tiny`` the dtype's smallest normal number."""
    for i in range(grad.size):
        m_i, v_i = _moments(grad[i], m, v, i, one_minus_beta,
                            one_minus_beta)
        mt = m_i / correction
        mt2 = mt * mt
        variance = numpy.maximum(v_i / correction - mt2, zero)
        denom = numpy.maximum(variance * rho_ratio + mt2, tiny)
        factor = numpy.minimum(numpy.maximum(mt2 / denom, zero), one)
        param[i] = param[i] * decay - factor * mt * lr * eta


_KERNELS = {
    'adam': _adam, 'sgd': _sgd, 'momentum_sgd': _momentum_sgd,
    'corrected_momentum_sgd': _corrected_momentum_sgd,
    'nesterov_ag': _nesterov_ag, 'ada_grad': _ada_grad,
    'ada_delta': _ada_delta, 'rmsprop': _rmsprop,
    'rmsprop_graves': _rmsprop_graves, 'smorms3': _smorms3,
    'msvag': _msvag}
