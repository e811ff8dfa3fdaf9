"""What the elementwise update rules share: their update, made from one
formula (:mod:`._formula`) for every path, scratch arrays for in-place CPU
updates, and hyperparameter checks.

On the CPU an update is a sequence of in-place NumPy ufunc calls; where the
formula needs a temporary it goes to a scratch array, which is reused by
every parameter and every step (one set per thread and dtype), so a step
allocates no array. A large parameter is updated a block at a time (see
:func:`cpu_update`). Float16 parameters are computed in float32, as
Chainer does. Where Numba is installed the formula runs as one fused loop
of :mod:`._fused_cpu` instead.

On the GPU each update is one fused ``ElementwiseKernel``: the arrays are
read once and written once. Arrays keep the parameter's dtype (``P``);
scalars and arithmetic use ``compute_t`` (float32, or float64 for float64
parameters).
"""
import threading

import numpy

from kusari.array import cuda
from kusari.training import optimizer
from kusari.training.optimizers import _fused_cpu

_local = threading.local()
# Bytes of each operand per block of a blocked CPU update: 1 MiB (256 Ki
# float32 values) was the fastest measured, on cores with 1 MiB of L2 and
# a shared 32 MiB L3 (Adam on the MLP of bench/mlp.py: 7 % faster than on
# whole arrays, 1 to 12 % over 11 rounds; 256 KiB, 3 %; 128 KiB, slower
# than whole arrays: each ufunc call costs its Python overhead per block).
_BLOCK_BYTES = 1 << 20


class Rule(optimizer.UpdateRule):
    """Base of the elementwise update rules.

    A subclass sets :attr:`formula`, :attr:`defaults` (the parent of its
    hyperparameter when none is given) and :attr:`zero_state`, and its
    constructor passes its hyperparameters to this one by name (those that
    are not None are set). The formula reads hyperparameters, and the
    values :meth:`scalars` gives; one that reads ``eps`` refuses an
    ``eps`` that rounds to zero in the compute dtype.
    """

    is_elementwise = True
    formula = None
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

    def scalars(self, param):
        """The values the formula reads that are not hyperparameters, by
        name, for this update of ``param``."""
        return {}

    def update_core_cpu(self, param):
        program, arrays, scalars = self._program(param)
        if _fused_cpu.run(program.numba_source, (param.grad, *arrays),
                          scalars):
            return
        cpu_update(program, param.grad, arrays, scalars)

    def update_core_gpu(self, param):
        program, arrays, scalars = self._program(param)
        _cuda_kernel(program, param.dtype)(param.grad, *scalars, *arrays)

    def _program(self, param):
        """The formula's program for the flags of this update, its arrays
        and its scalar arguments."""
        values = self.scalars(param)
        formula = self.formula
        program = formula.program(tuple([
            bool(flag) for flag in self._values(formula.flags, values)]))
        inputs = self._values(program.inputs, values)
        if 'eps' in program.inputs:
            check_eps(self, inputs[program.inputs.index('eps')],
                      param.dtype)
        state = self.state
        arrays = [param.array] + [state[name] for name in program.arrays[1:]]
        return program, arrays, program.prepare(*inputs)

    def _values(self, names, values):
        """The values of ``names``: from ``values`` (of :meth:`scalars`),
        else hyperparameters."""
        hyperparam = self.hyperparam
        return [values[name] if name in values else getattr(hyperparam, name)
                for name in names]


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


def cpu_update(program, grad, arrays, scalars):
    """Run the NumPy path of ``program`` (a :class:`~._formula.Program`)
    on the gradient ``grad`` and ``arrays`` (the parameter's array and
    its states, updated in place), with its ``scalars``.

    Where the arrays are C-contiguous and larger than a block, each block
    of them goes through the whole sequence of ufunc calls before the
    next: a call then reads what the call before it left in the cache,
    instead of the whole arrays again from farther away. The update is
    elementwise, so the bits are those of the update of whole arrays.
    The gradient is cast to the compute dtype a block at a time too.
    """
    dtype = compute_dtype(grad.dtype)
    block = _BLOCK_BYTES // dtype.itemsize
    size = grad.size
    operands = (grad, *arrays)
    if size <= block or not all(a.flags.c_contiguous for a in operands):
        if grad.dtype != dtype:
            grad = grad.astype(dtype)
        program.numpy_update(
            grad, *arrays, *_scratch(grad.shape, dtype, program.n_scratch),
            *scalars)
        return
    cast = grad.dtype != dtype
    # With a cast, the first scratch array holds the gradient's block.
    scratch = _scratch((block,), dtype, program.n_scratch + cast)
    flat = [operand.reshape(-1) for operand in operands]
    for start in range(0, size, block):
        stop = start + block
        if stop > size:
            scratch = [array[:size - start] for array in scratch]
        grad_block, *blocks = [array[start:stop] for array in flat]
        if cast:
            numpy.copyto(scratch[0], grad_block)
            grad_block = scratch[0]
        program.numpy_update(grad_block, *blocks, *scratch[cast:], *scalars)


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


def _cuda_kernel(program, dtype):
    """The CuPy kernel of ``program`` for ``dtype`` parameters (built once
    per program, dtype and device); its arguments are the gradient, the
    scalars and the arrays it updates in place."""
    compute = compute_dtype(dtype)
    c_type = 'double' if compute == numpy.float64 else 'float'
    in_params = ', '.join(['P grad'] + [f'{compute.name} {scalar}'
                                        for scalar in program.scalars])
    out_params = ', '.join(f'P {array}' for array in program.arrays)
    return cuda.elementwise(in_params, out_params, program.cuda_body,
                            program.name,
                            preamble=f'typedef {c_type} compute_t;')
