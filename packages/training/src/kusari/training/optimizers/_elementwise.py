"""What the elementwise update rules share: scratch arrays for in-place CPU
updates, fused CuPy kernels for GPU ones, and hyperparameter checks.

On the CPU an update is a sequence of in-place NumPy ufunc calls; where the
formula needs a temporary it goes to a scratch array, which is reused by
every parameter and every step (one set per thread and dtype, as large as
the largest parameter), so a step allocates no array. Float16 parameters
are computed in float32, as Chainer does. Where Numba is installed a rule
may run one fused kernel of :mod:`._fused_cpu` instead.

On the GPU each update is one fused ``ElementwiseKernel``: the arrays are
read once and written once. Arrays keep the parameter's dtype (``P``);
scalars and arithmetic use ``compute_t`` (float32, or float64 for float64
parameters).
"""
import threading

import numpy

from kusari.array import cuda
from kusari.training import optimizer

_local = threading.local()


class Rule(optimizer.UpdateRule):
    """Base of the elementwise update rules.

    A subclass sets :attr:`defaults` (the parent of its hyperparameter when
    none is given) and :attr:`zero_state`, and its constructor passes its
    hyperparameters to this one by name (those that are not None are set).
    """

    is_elementwise = True
    defaults = None
    # Names of the state arrays that start as zeros like the parameter.
    zero_state = ()

    def __init__(self, parent_hyperparam=None, **entries):
        super().__init__(parent_hyperparam or self.defaults)
        optimizer.set_hyperparams(self.hyperparam, **entries)

    def update_core(self, param):
        # Nothing to update without an array and a gradient; else as
        # UpdateRule.update_core, for an initialized parameter.
        array = param.array
        if array is None or param.grad is None:
            return
        if isinstance(array, numpy.ndarray):
            self.update_core_cpu(param)
        else:
            with array.device:
                self.update_core_gpu(param)

    def init_state(self, param):
        xp = param.device.xp
        for key in self.zero_state:
            self.state[key] = xp.zeros_like(param.array)


class Method(optimizer.GradientMethod):
    """Base of the optimizers with elementwise rules.

    A subclass sets :attr:`rule_class` (built with :attr:`hyperparam` as its
    parent), names its hyperparameters in its class statement
    (``class SGD(Method, hyperparams=('lr',))``, each becoming a
    :class:`~kusari.training.optimizer.HyperparameterProxy`), and its
    constructor passes their initial values to this one by name.
    """

    rule_class = None

    def __init_subclass__(cls, hyperparams=(), **kwargs):
        super().__init_subclass__(**kwargs)
        for name in hyperparams:
            setattr(cls, name, optimizer.HyperparameterProxy(name))

    def __init__(self, **hyperparams):
        super().__init__()
        for name, value in hyperparams.items():
            setattr(self.hyperparam, name, value)

    def create_update_rule(self):
        return self.rule_class(self.hyperparam)


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
    return grad, _scratch(grad.shape, grad.dtype, n_scratch)


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


def update_moments(grad, m, v, one_minus_beta1, one_minus_beta2, work):
    """Move the moving averages ``m`` of ``grad`` and ``v`` of ``grad ** 2``
    in place: ``m += (1 - beta1) * (grad - m)``, ``v += (1 - beta2) *
    (grad ** 2 - v)`` (``work``, a scratch array, is left with garbage)."""
    numpy.subtract(grad, m, out=work)
    work *= one_minus_beta1
    m += work
    numpy.multiply(grad, grad, out=work)
    work -= v
    work *= one_minus_beta2
    v += work


# update_moments in a fused kernel (arrays grad, m, v; scalars
# one_minus_beta1, one_minus_beta2); it leaves the locals g, m_ and v_.
MOMENTS_CUDA = '''
    compute_t g = grad;
    compute_t m_ = m;
    compute_t v_ = v;
    m_ += one_minus_beta1 * (g - m_);
    v_ += one_minus_beta2 * (g * g - v_);
    m = m_;
    v = v_;
'''


def descend_decoupled(array, step, eta, weight_decay_rate):
    """``array -= eta * (step + weight_decay_rate * array)`` in place (the
    decoupled weight decay of AdamW; ``step`` is scaled in place)."""
    if weight_decay_rate != 0:
        array *= 1 - eta * weight_decay_rate
    if eta != 1:
        step *= eta
    array -= step


def descend_scaled(array, grad, lr, denom, step):
    """``array -= lr * grad / denom`` in place, through the scratch array
    ``step``."""
    numpy.multiply(grad, lr, out=step)
    step /= denom
    array -= step


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
