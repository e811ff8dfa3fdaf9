"""Numerical gradients, and checks of backward against them.

``check_backward`` compares one directional derivative: the analytic
gradient projected on a random unit direction against a central finite
difference along that direction. One comparison per check, however many
inputs, and a failure still shows which function is wrong.
"""
import math

import numpy

from kusari.array import backend
from kusari.array.configuration import using_config
from kusari.autograd import _backprop
from kusari.autograd.utils.array import force_array
from kusari.autograd.variable import Variable


class NondifferentiableError(Exception):
    """The function is not differentiable at the point checked."""


def _as_tuple(x):
    if x is None:
        return None
    if isinstance(x, (tuple, list)):
        return tuple(x)
    return (x,)


def _array_of(x):
    return x.array if isinstance(x, Variable) else x


def _projection(outputs, grad_outputs, dtype):
    """sum_i <y_i, gy_i> in ``dtype`` precision, as a float."""
    total = 0.
    for y, gy in zip(outputs, grad_outputs):
        if gy is None:
            continue
        y = backend.CpuDevice().send_array(_array_of(y)).astype(dtype)
        gy = backend.CpuDevice().send_array(gy).astype(dtype)
        total += float((y * gy).sum())
    return total


def numerical_grad(f, inputs, grad_outputs, eps=1e-3,
                   detect_nondifferentiable=False, diff_atol=0,
                   diff_rtol=1e-2, center_outputs=None):
    """Finite-difference gradient of ``sum_i <f(inputs)_i, grad_outputs_i>``.

    Each element of each input array is moved by ``±eps`` in place (and
    restored): a central difference. With ``detect_nondifferentiable`` it
    is also moved by ``±eps/2``, the derivative is the five-point one, and
    :class:`NondifferentiableError` is raised, as Chainer does, where the
    five outputs of an element (``center_outputs`` in the middle) are
    finite at some points only, or (all finite) a quadratic fits them worse
    than ``diff_atol + diff_rtol * (max - min)`` (root-mean-square).

    Args:
        f: a function of no arguments returning a tuple of arrays or
            scalars (it reads the ``inputs`` arrays, which are perturbed in
            place).
        inputs: a tuple of arrays.
        grad_outputs: a tuple of arrays, scalars or None, one per output.
        eps: the step (positive), a float or one per input.
        center_outputs: ``f()`` at the unperturbed point, if already known.

    Returns:
        A tuple of gradient arrays, one per input, in the inputs' dtypes.
    """
    inputs = tuple(inputs)
    grad_outputs = [None if gy is None else _host64(gy)
                    for gy in _as_tuple(grad_outputs)]
    eps_list = eps if isinstance(eps, (tuple, list)) else (eps,) * len(
        inputs)
    if len(eps_list) != len(inputs):
        raise ValueError(f'numerical_grad: {len(eps_list)} eps values for '
                         f'{len(inputs)} inputs')
    for step in eps_list:
        if not step > 0:  # (AssertionError, as Chainer's)
            raise AssertionError(f'numerical_grad: eps must be positive, '
                                 f'got {step}')
    if detect_nondifferentiable:
        center = _host_outputs(f() if center_outputs is None
                               else center_outputs)
    shifts = (-1, -0.5, 0.5, 1) if detect_nondifferentiable else (-1, 1)

    grads = []
    for x, step in zip(inputs, eps_list):
        if x.dtype.kind != 'f':
            raise TypeError(f'numerical_grad: inputs must be float arrays, '
                            f'got {x.dtype}')
        xp = backend.get_array_module(x)
        gx = xp.zeros(x.shape, dtype=x.dtype)
        for i in numpy.ndindex(x.shape):
            orig = x[i].copy()
            values = {}
            for k in shifts:
                x[i] = orig + k * step
                values[k] = _host_outputs(f())
            x[i] = orig
            if detect_nondifferentiable:
                _check_differentiable(
                    [values[-1], values[-0.5], center, values[0.5],
                     values[1]], i, diff_atol, diff_rtol)
            total = 0.
            for n, gy in enumerate(grad_outputs):
                if gy is None or values[1][n] is None:
                    continue
                if detect_nondifferentiable:
                    diff = (values[-1][n] - 8 * values[-0.5][n]
                            + 8 * values[0.5][n] - values[1][n]) / 6
                else:
                    diff = (values[1][n] - values[-1][n]) / 2
                total += float((diff * gy).sum())
            gx[i] = total / step
        grads.append(gx)
    return tuple(grads)


def _host64(y):
    """An output (array, Variable or scalar) as a float64 NumPy array."""
    return numpy.asarray(backend.CpuDevice().send_array(_array_of(y))
                         if not numpy.isscalar(y) else y, numpy.float64)


def _host_outputs(outputs):
    """Outputs of the function checked, copied to float64 NumPy arrays
    (None kept): an output may be the very array being perturbed."""
    return [None if y is None else _host64(y).copy()
            for y in _as_tuple(outputs)]


def _check_differentiable(samples, index, atol, rtol):
    """Raise :class:`NondifferentiableError` where the outputs at five
    equally spaced points (``samples``, one list of outputs per point) do
    not look differentiable: an element finite at some points only, or
    (where all are finite) one a quadratic fits badly."""
    any_nonfinite = False
    for n, y in enumerate(samples[0]):
        if y is None:
            continue
        finite = [numpy.isfinite(ys[n]) for ys in samples]
        if any((f != finite[0]).any() for f in finite):
            raise NondifferentiableError(
                f'not differentiable at input element {index}: output {n} '
                f'is finite at some of the points checked only\n'
                + _describe('outputs', [ys[n] for ys in samples]))
        any_nonfinite |= not all(f.all() for f in finite)
    # A function that is not finite all around (log below 0) is left be.
    if any_nonfinite:
        return
    for n, y in enumerate(samples[0]):
        if y is None or y.size == 0:
            continue
        stack = numpy.stack([ys[n].ravel() for ys in samples])
        _, (residuals, _, _, _) = numpy.polynomial.polynomial.polyfit(
            numpy.arange(len(samples)), stack, deg=2, full=True)
        residuals = numpy.sqrt(residuals / len(samples))
        spread = stack.max(axis=0) - stack.min(axis=0)
        bad = (atol + rtol * spread < residuals) & (spread > 0)
        if bad.any():
            raise NondifferentiableError(
                f'not differentiable at input element {index}: a quadratic '
                f'fits output {n} with a root-mean-square error of '
                f'{residuals.max()} (tolerance {atol} + {rtol} * the '
                f'spread of the values)\n'
                + _describe('outputs', [ys[n] for ys in samples]))


def _unit_direction(shapes):
    """A random unit vector, as one float64 array per shape (None if they
    are all empty).

    One Gaussian draw of the whole vector from ``numpy.random``, its
    squared components rescaled to 99 % of the norm and 1 % spread evenly:
    no component is below ``0.1 / sqrt(size)``, too small to compare
    gradients along. As Chainer's, so a seed gives Chainer's direction.
    """
    sizes = [math.prod(shape) for shape in shapes]
    size = sum(sizes)
    if size == 0:
        return None
    draw = numpy.random.normal(size=size)
    squares = numpy.square(draw)
    unit = numpy.copysign(
        numpy.sqrt(0.99 / squares.sum() * squares + 0.01 / size), draw)
    parts = numpy.split(unit, numpy.cumsum(sizes)[:-1])
    return [part.reshape(shape) for part, shape in zip(parts, shapes)]


def _default_no_grads(arrays):
    """No gradient is checked for non-float inputs, nor for None ones."""
    return [a is None or a.dtype.kind != 'f' for a in arrays]


def _as_variable_or_none(x):
    return None if x is None else Variable(x)


def check_backward(func, x_data, y_grad, params=(), eps=1e-3, atol=1e-5,
                   rtol=1e-4, no_grads=None, dtype=None,
                   detect_nondifferentiable=False):
    """Check ``func``'s backward against a finite difference.

    Args:
        func: a function of Variables returning a Variable or a tuple.
        x_data: an input array or a tuple of them.
        y_grad: the gradient of each output (an array, a tuple, or None for
            a function with one one-element output).
        params: Parameters ``func`` uses, checked as inputs too.
        eps: the finite-difference step.
        atol, rtol: tolerances of the comparison.
        no_grads: one bool per input: True where no gradient is expected
            (by default, non-float inputs).
        dtype: compute the finite difference with inputs cast to this
            float dtype (e.g. float64 for float16 functions).
        detect_nondifferentiable: raise :class:`NondifferentiableError`
            when the point is at a kink of the function.

    Raises:
        AssertionError: when the gradients disagree.
    """
    x_data = _as_tuple(x_data)
    y_grad = _as_tuple(y_grad)
    params = _as_tuple(params) or ()
    if dtype is not None and numpy.dtype(dtype).kind != 'f':
        raise ValueError(f'check_backward: dtype must be a float type, got '
                         f'{dtype}')
    if no_grads is None:
        no_grads = _default_no_grads(x_data)
    elif len(no_grads) != len(x_data):
        raise ValueError(f'check_backward: {len(no_grads)} no_grads for '
                         f'{len(x_data)} inputs')

    # Every input takes part, so that one marked in no_grads is checked to
    # receive no gradient; the arrays themselves, so that the function
    # meets them as given (non-contiguous ones included), as in Chainer.
    # (A None input reaches func as None, as an absent optional input.)
    xs = [_as_variable_or_none(x) for x in x_data]
    for p in params:
        p.cleargrad()
    with using_config('enable_backprop', True):
        ys = _as_tuple(func(*xs))
    _check_outputs(ys, 'check_backward')
    if y_grad is None:
        if len(ys) != 1 or ys[0].size != 1:
            raise ValueError('check_backward: y_grad may be None only for a '
                             'function with one one-element output')
    elif len(y_grad) != len(ys):
        raise ValueError(f'check_backward: {len(y_grad)} y_grad arrays for '
                         f'{len(ys)} outputs')
    if y_grad is None:
        _backprop.backward(list(ys))
    else:
        # An output whose y_grad is None gives its function no gradient.
        starts = [(y, gy) for y, gy in zip(ys, y_grad) if gy is not None]
        _backprop.backward([y for y, _ in starts], [gy for _, gy in starts])

    for x, skip in zip(xs, no_grads):
        if skip and x is not None and x.grad is not None:
            raise RuntimeError(f'check_backward: an input marked in no_grads '
                               f'received a gradient of shape {x.grad.shape}')
    targets = [x for x, skip in zip(xs, no_grads) if not skip] + list(params)
    if not targets:
        return
    analytic_grads = [_grad_or_zeros(v) for v in targets]

    directions = _unit_direction([v.shape for v in targets])
    if directions is None:
        return  # every target is empty: nothing to compare
    analytic = sum(
        float((backend.CpuDevice().send_array(g).astype(numpy.float64)
               * d).sum())
        for g, d in zip(analytic_grads, directions))

    compute_dtype = numpy.dtype(dtype) if dtype is not None else None
    base_inputs = [
        None if x is None else x.astype(compute_dtype)
        if compute_dtype is not None and x.dtype.kind == 'f' else x.copy()
        for x in x_data]
    base_params = [p.array.astype(compute_dtype) if compute_dtype is not None
                   else p.array.copy() for p in params]
    target_base = [base_inputs[i] for i, skip in enumerate(no_grads)
                   if not skip] + base_params
    # The parameters count too: a Link without inputs (a Parameter) has
    # its arrays only there.
    xp = backend.get_array_module(*x_data, *[p.array for p in params])
    device_dirs = [xp.asarray(d.astype(b.dtype))
                   for d, b in zip(directions, target_base)]
    delta = numpy.zeros((), dtype=numpy.float64)

    def shifted_outputs():
        # A Python float keeps each input's dtype (NEP 50 weak scalar).
        t = float(delta)
        shifted = iter([force_array(b + t * d)
                        for b, d in zip(target_base, device_dirs)])
        inputs = [b if skip else next(shifted)
                  for b, skip in zip(base_inputs, no_grads)]
        saved = [p.array for p in params]
        for p in params:
            new = next(shifted)
            p.array = new.astype(p.dtype) if compute_dtype is None else new
        try:
            with using_config('enable_backprop', False):
                outs = _as_tuple(func(*[_as_variable_or_none(a)
                                        for a in inputs]))
        finally:
            for p, a in zip(params, saved):
                p.array = a
        return tuple(_array_of(y) for y in outs)

    grad_outputs = y_grad if y_grad is not None else (
        xp.ones(ys[0].shape, dtype=ys[0].dtype),)
    numerical, = numerical_grad(
        shifted_outputs, (delta,), grad_outputs, eps=eps,
        detect_nondifferentiable=detect_nondifferentiable)
    numerical = float(numerical)
    if not abs(numerical - analytic) <= atol + rtol * abs(numerical):
        raise AssertionError(
            f'check_backward failed: the directional derivative from '
            f'backward is {analytic!r}, from finite differences '
            f'{numerical!r} (atol={atol}, rtol={rtol}, eps={eps})\n'
            + _describe('inputs', x_data) + _describe('y_grad', y_grad or ())
            + _describe('analytic gradients', analytic_grads)
            + _describe('directions', directions))


def _grad_or_zeros(v):
    if v.grad is not None:
        return v.grad
    return backend.get_array_module(v.array).zeros_like(v.array)


def _check_outputs(ys, caller):
    for i, y in enumerate(ys):
        if not isinstance(y, Variable):
            raise TypeError(f'{caller}: func must return Variables; output '
                            f'{i} is a {type(y).__name__}')


def _describe(title, arrays):
    lines = [f'{title}:']
    for i, a in enumerate(arrays):
        a = _array_of(a)
        lines.append(f'  [{i}] shape {a.shape} dtype {a.dtype}\n'
                     f'{numpy.array2string(backend.CpuDevice().send_array(a))}'
                     if a is not None else f'  [{i}] None')
    return '\n'.join(lines) + '\n'


def _zeros_for_none(gy, y):
    """``gy``, or zeros like ``y`` where ``gy`` holds no array."""
    if getattr(gy, 'array', gy) is not None:
        return gy
    return Variable(backend.get_array_module(y.array).zeros_like(y.array))


def check_double_backward(func, x_data, y_grad, x_grad_grad, params=(),
                          params_grad_grad=(), eps=1e-3, atol=1e-4,
                          rtol=1e-3, no_grads=None, dtype=None,
                          detect_nondifferentiable=False):
    """Check the second-order gradient of ``func``.

    The first-order gradient, as a function of the inputs and ``y_grad``,
    is itself checked with :func:`check_backward`, its output gradients
    being ``x_grad_grad`` (and ``params_grad_grad``).

    Arguments are those of :func:`check_backward`, plus the gradients of
    the first-order gradients.
    """
    x_data = _as_tuple(x_data)
    y_grad = _as_tuple(y_grad)
    x_grad_grad = _as_tuple(x_grad_grad)
    params = _as_tuple(params) or ()
    params_grad_grad = _as_tuple(params_grad_grad) or ()
    n_x = len(x_data)
    if no_grads is None:
        no_grads = _default_no_grads(x_data)
    first_order_targets = [i for i in range(n_x) if not no_grads[i]]
    if len(x_grad_grad) != len(first_order_targets):
        raise ValueError(
            f'check_double_backward: {len(x_grad_grad)} x_grad_grad arrays '
            f'for {len(first_order_targets)} differentiable inputs')
    if len(params_grad_grad) != len(params):
        raise ValueError(
            f'check_double_backward: {len(params_grad_grad)} '
            f'params_grad_grad arrays for {len(params)} params')

    def first_order_grad(*inputs):
        xs = inputs[:n_x]
        gys = inputs[n_x:] if y_grad is not None else None
        # Finite differences run without a graph; the first-order gradient
        # needs one all the same.
        with using_config('enable_backprop', True):
            ys = _as_tuple(func(*xs))
        wrt = [xs[i] for i in first_order_targets] + list(params)
        if gys is not None:
            # An output whose gradient is None contributes nothing (grad
            # would start it from ones).
            gys = [_zeros_for_none(gy, y) for gy, y in zip(gys, ys)]
        gxs = _backprop.grad(list(ys), wrt, gys, None, False, False, True,
                             None)
        return tuple(
            g if g is not None else Variable(
                backend.get_array_module(v.array).zeros_like(v.array))
            for g, v in zip(gxs, wrt))

    inputs = x_data + (y_grad if y_grad is not None else ())
    input_no_grads = list(no_grads) + [gy is None for gy in inputs[n_x:]]
    check_backward(first_order_grad, inputs,
                   x_grad_grad + params_grad_grad, params=params, eps=eps,
                   atol=atol, rtol=rtol, no_grads=input_no_grads,
                   dtype=dtype,
                   detect_nondifferentiable=detect_nondifferentiable)
