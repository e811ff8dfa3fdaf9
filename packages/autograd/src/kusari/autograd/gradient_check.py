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
    restored). With ``detect_nondifferentiable``, it is also moved by
    ``±eps/2``, and second-order one-sided derivatives from the left and
    the right (steps of ``eps/2``, as Chainer's) are compared per output
    element; :class:`NondifferentiableError` is raised where they disagree
    by more than ``diff_atol + diff_rtol * |derivative|``.

    Args:
        f: a function of no arguments returning a tuple of arrays (it reads
            the ``inputs`` arrays, which are perturbed in place).
        inputs: a tuple of arrays.
        grad_outputs: a tuple of arrays (or None entries), one per output.
        eps: the step, a float or one per input.
        center_outputs: ``f()`` at the unperturbed point, if already known.

    Returns:
        A tuple of gradient arrays, one per input, in the inputs' dtypes.
    """
    inputs = tuple(inputs)
    grad_outputs = _as_tuple(grad_outputs)
    eps_list = eps if isinstance(eps, (tuple, list)) else (eps,) * len(
        inputs)
    if len(eps_list) != len(inputs):
        raise ValueError(f'numerical_grad: {len(eps_list)} eps values for '
                         f'{len(inputs)} inputs')
    if detect_nondifferentiable and center_outputs is None:
        center_outputs = _as_tuple(f())

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
            shifts = (-1, -0.5, 0.5, 1) if detect_nondifferentiable \
                else (-1, 1)
            for k in shifts:
                x[i] = orig + k * step
                values[k] = [backend.CpuDevice().send_array(_array_of(y))
                             .astype(numpy.float64)
                             for y in _as_tuple(f())]
            x[i] = orig
            if detect_nondifferentiable:
                _check_differentiable(values, center_outputs, step / 2,
                                      diff_atol, diff_rtol, i)
            total = 0.
            for y_minus, y_plus, gy in zip(values[-1], values[1],
                                           grad_outputs):
                if gy is None:
                    continue
                gy = backend.CpuDevice().send_array(gy).astype(numpy.float64)
                total += float(((y_plus - y_minus) * gy).sum())
            gx[i] = total / (2 * step)
        grads.append(gx)
    return tuple(grads)


def _check_differentiable(values, center_outputs, step, atol, rtol, index):
    """Compare each output's derivatives from the left and the right;
    ``values`` maps a shift of the input, in eps (so ±0.5 is one
    ``step``), to the outputs there."""
    for n, center in enumerate(center_outputs):
        y0 = backend.CpuDevice().send_array(_array_of(center)).astype(
            numpy.float64)
        left = (3 * y0 - 4 * values[-0.5][n] + values[-1][n]) / (2 * step)
        right = (-3 * y0 + 4 * values[0.5][n] - values[1][n]) / (2 * step)
        scale = numpy.maximum(abs(left), abs(right))
        if not numpy.all(abs(left - right) <= atol + rtol * scale):
            raise NondifferentiableError(
                f'not differentiable at input element {index}: derivatives '
                f'from the left {left} and from the right {right} of output '
                f'{n} differ')


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
    return [a is None or a.dtype.kind != 'f' for a in arrays]


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
    xs = [Variable(x) for x in x_data]
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
    _backprop.backward(list(ys), None if y_grad is None else list(y_grad))

    for x, skip in zip(xs, no_grads):
        if skip and x.grad is not None:
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
                outs = _as_tuple(func(*[Variable(a) for a in inputs]))
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
