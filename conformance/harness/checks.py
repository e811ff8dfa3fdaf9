"""The generic checks every record goes through.

A check gets a :class:`Case` (one drawn example: the record, the dtype
under test, the device, the inputs) and raises AssertionError naming the
record when the function breaks a rule. Numerical gradients are computed
in float64 whatever the dtype under test, so float16 and float32 results
are compared with a precise finite difference.
"""
import dataclasses

import numpy
from hypothesis import assume
from hypothesis import strategies as st

from kusari.array import backend
from kusari.autograd import gradient_check
from kusari.autograd import backward
from kusari.autograd import grad
from kusari.autograd import no_backprop_mode
from kusari.autograd.variable import Variable

from harness.record import as_sample
from harness.strategies import floats

_HOST = backend.CpuDevice()


@dataclasses.dataclass(frozen=True)
class Case:
    """One example: ``host`` holds the inputs cast to ``dtype``,
    ``inputs`` copies of them on ``device``; ``host_kwargs`` holds the
    keyword arguments for the reference, ``kwargs`` the same with their
    arrays (labels, class weights) on ``device``."""

    record: object
    dtype: numpy.dtype
    device: backend.Device
    host: tuple
    inputs: tuple
    host_kwargs: dict
    kwargs: dict

    def call(self, *variables):
        """The record's function with this case's keyword arguments."""
        return self.record.func(*variables, **self.kwargs)

    def run(self, requires_grad=False):
        """The outputs for this case's inputs, as a tuple."""
        return _as_tuple(self.call(*[
            Variable(x, requires_grad=requires_grad) for x in self.inputs]))


def draw_case(draw, record, dtype, device):
    """Draw the record's inputs and prepare them for ``dtype`` and
    ``device``."""
    drawn = as_sample(draw(record.inputs))
    dtype = numpy.dtype(dtype)
    host = tuple(a.astype(dtype) if a.dtype.kind == 'f' else a
                 for a in drawn.arrays)
    inputs = tuple(device.send([a.copy() for a in host]))
    kwargs = {name: _send_arrays(device, value)
              for name, value in drawn.kwargs.items()}
    return Case(record, dtype, device, host, inputs, drawn.kwargs, kwargs)


def _send_arrays(device, value):
    """``value`` with the NumPy arrays in it (also inside lists and
    tuples) sent to ``device``; anything else as it is."""
    if isinstance(value, numpy.ndarray):
        return device.send_array(value.copy())
    if isinstance(value, (list, tuple)):
        return type(value)(_send_arrays(device, v) for v in value)
    return value


def check_outputs(case):
    """Outputs are Variables of the expected dtype, on the case's device."""
    name = case.record.name
    expected = case.record.expected_dtype(case.dtype, case.host_kwargs)
    for i, y in enumerate(case.run()):
        assert isinstance(y, Variable), (
            f'{name}: output {i} is a {type(y).__name__}, not a Variable')
        assert y.dtype == expected, (
            f'{name}: output {i} has dtype {y.dtype} for {case.dtype} '
            f'inputs; expected {expected}')
        assert case.device.is_array_supported(y.array), (
            f'{name}: output {i} is a {type(y.array).__name__}, not an '
            f'array of {case.device}')


def check_forward(case):
    """Outputs match the reference computed in float64, and the inputs
    are left unchanged."""
    record = case.record
    outputs = case.run()
    expected = _as_tuple(record.reference(
        *[x.astype(numpy.float64) for x in case.host], **case.host_kwargs))
    assert len(outputs) == len(expected), (
        f'{record.name}: {len(outputs)} outputs, the reference gives '
        f'{len(expected)}')
    for i, (y, reference) in enumerate(zip(outputs, expected)):
        tolerance = record.tolerance(
            _least_precise(case.dtype, y.dtype), 'forward')
        numpy.testing.assert_allclose(
            _to_host(y.array).astype(numpy.float64),
            numpy.asarray(reference, dtype=numpy.float64), strict=True,
            err_msg=f'{record.name}: output {i} differs from the reference',
            **tolerance)
    for i, (x, original) in enumerate(zip(case.inputs, case.host)):
        numpy.testing.assert_array_equal(
            _to_host(x), original, strict=True,
            err_msg=f'{record.name}: forward modified input {i}')


def check_backward(case, draw):
    """First-order gradients agree with finite differences."""
    outputs = case.run()
    gradient_check.check_backward(
        case.call, case.inputs, _draw_like(draw, outputs, case.device),
        eps=case.record.eps[case.dtype], no_grads=case.record.no_grads,
        dtype=numpy.float64, **_tolerance(case, outputs, 'backward'))


def subset_candidates(case):
    """The indexes of the inputs that take a gradient."""
    no_grads = case.record.no_grads or [
        x.dtype.kind != 'f' for x in case.host]
    return [i for i, skip in enumerate(no_grads) if not skip]


def summation_order_tolerance(device, dtype, tolerance):
    """``tolerance`` for two computations of the same sums, widened on a
    GPU to a few units in the last place of ``dtype``: CuPy's scatter-add
    (the gradients of embed_id and of the deformable sampler) adds with
    atomics, in an order that changes from run to run, as Chainer's CUDA
    kernels do. On NumPy, where the order is fixed, ``tolerance`` as it
    is."""
    if device.xp is numpy:
        return tolerance
    ulps = 4 * float(numpy.finfo(dtype).eps)
    return {name: max(value, ulps) for name, value in tolerance.items()}


def check_backward_subset(case, draw):
    """Where only some inputs require a gradient (backward's target
    indexes are a subset), those get the gradients they get when every
    input requires one (which check_backward compares with finite
    differences), and the others none."""
    candidates = subset_candidates(case)
    chosen = draw(st.sets(st.sampled_from(candidates), min_size=1,
                          max_size=len(candidates) - 1))
    outputs = case.run()
    y_grads = _draw_like(draw, outputs, case.device)
    full = _input_grads(case, candidates, y_grads)
    part = _input_grads(case, chosen, y_grads)
    for i in candidates:
        assert i in chosen or part[i] is None, (
            f'{case.record.name}: input {i} requires no gradient but got '
            f'one when only inputs {sorted(chosen)} require one')
    _assert_grads_close(
        case, [part[i] if i in chosen else None for i in range(len(part))],
        [full[i] if i in chosen else None for i in range(len(full))],
        f'changes when only inputs {sorted(chosen)} require one',
        summation_order_tolerance(case.device, case.dtype,
                                  {'rtol': 1e-5, 'atol': 1e-6}))


def _input_grads(case, requiring, y_grads, inputs=None, calls=1,
                 enable_double_backprop=False):
    """The gradients of ``inputs`` (the case's by default) where the
    outputs of ``calls`` calls on the same Variables all get ``y_grads``;
    None for an input that requires none or gets none."""
    xs = [Variable(x, requires_grad=i in requiring)
          for i, x in enumerate(case.inputs if inputs is None else inputs)]
    pairs = []
    for _ in range(calls):
        ys = _as_tuple(case.call(*xs))
        pairs += [(y, gy) for y, gy in zip(ys, y_grads)
                  if y.dtype.kind == 'f' and y.creator_node is not None]
    if pairs:
        backward([y for y, _ in pairs], [gy for _, gy in pairs],
                 enable_double_backprop=enable_double_backprop)
    return [x.grad for x in xs]


def _assert_grads_close(case, got, expected, what, tolerance=None,
                        of='input', like=None):
    """Input gradients ``got`` equal ``expected`` (None stands for zeros:
    an input the outputs do not depend on), with the backward tolerance of
    the case's dtype unless one is given; gradients of other arrays
    (``of`` names them) where ``like`` holds arrays of their shapes."""
    tolerance = tolerance or case.record.tolerance(case.dtype, 'backward')
    for i, (g, e) in enumerate(zip(got, expected)):
        if g is None and e is None:
            continue
        shape = (case.host if like is None else like)[i].shape
        g, e = (numpy.zeros(shape) if a is None else
                _to_host(a).astype(numpy.float64) for a in (g, e))
        numpy.testing.assert_allclose(
            g, e, err_msg=f'{case.record.name}: the gradient of {of} {i} '
                          f'{what}', **tolerance)


def check_graph_path(case, draw):
    """The first-order gradients built as a graph (the path of
    ``enable_double_backprop=True``) equal those computed on arrays (the
    path :func:`check_backward` compares with finite differences)."""
    candidates = subset_candidates(case)
    y_grads = _draw_like(draw, case.run(), case.device)
    arrays = _input_grads(case, candidates, y_grads)
    graph = _input_grads(case, candidates, y_grads,
                         enable_double_backprop=True)
    _assert_grads_close(case, graph, arrays,
                        'built as a graph differs from the array path')


def check_reused_inputs(case, draw):
    """Inputs used by two calls in one graph get the sum of both calls'
    gradients (a weight shared by two layers, a step of an RNN): twice
    those of one call."""
    candidates = subset_candidates(case)
    y_grads = _draw_like(draw, case.run(), case.device)
    once = _input_grads(case, candidates, y_grads)
    twice = _input_grads(case, candidates, y_grads, calls=2)
    doubled = [None if g is None else g * 2 for g in once]
    _assert_grads_close(case, twice, doubled,
                        'of two calls in one graph is not twice that of one')


LAYOUTS = ('contiguous', 'fortran', 'reversed', 'strided', 'offset',
           'broadcast')


def laid_out(array, layout, axis=0):
    """``array``'s values in a view of another memory ``layout``: F order,
    negative strides, every other element of a larger array, an offset
    into one, or (``'broadcast'``) stride 0 along ``axis``, where every
    value along it becomes the first one (so the values change)."""
    xp = backend.get_array_module(array)
    if layout == 'contiguous' or array.ndim == 0:
        return array
    if layout == 'fortran':
        return xp.asfortranarray(array)
    if layout == 'broadcast':
        first = array.take(xp.arange(min(1, array.shape[axis])), axis=axis)
        return xp.broadcast_to(first, array.shape)
    if layout == 'reversed':
        base = xp.empty_like(array)
        view = base[(slice(None, None, -1),) * array.ndim]
    elif layout == 'strided':
        base = xp.empty(tuple(2 * n for n in array.shape), array.dtype)
        view = base[(slice(None, None, 2),) * array.ndim]
    else:  # an offset: the view starts one element into its base
        base = xp.empty(array.size + 1, array.dtype)
        view = base[1:].reshape(array.shape)
    view[...] = array
    return view


def check_layouts(case, draw):
    """Inputs held in views (F order, negative strides, a stride, an
    offset, stride 0) give the outputs and gradients their values give as
    C-contiguous arrays, and are left unchanged."""
    layouts = [draw(st.sampled_from(LAYOUTS)) if x.ndim else 'contiguous'
               for x in case.inputs]
    views = [laid_out(x, layout, draw(st.integers(0, x.ndim - 1)))
             if x.ndim else x for x, layout in zip(case.inputs, layouts)]
    name = f'{case.record.name} (inputs laid out as {layouts})'
    contiguous = [v.copy() for v in views]  # C order, any ndim
    candidates = subset_candidates(case)
    try:
        expected = [y.array for y in _as_tuple(case.call(*[
            Variable(x) for x in contiguous]))]
        y_grads = tuple(case.device.send([
            draw(floats(shape=y.shape, dtype=y.dtype)) for y in expected]))
        expected_grads = _input_grads(case, candidates, y_grads,
                                      inputs=contiguous)
    except (ValueError, ArithmeticError, numpy.linalg.LinAlgError):
        assume(False)  # a broadcast made the inputs invalid (singular...)
    outputs = [y.array for y in _as_tuple(case.call(*[
        Variable(v) for v in views]))]
    for i, (y, e) in enumerate(zip(outputs, expected)):
        numpy.testing.assert_allclose(
            _to_host(y), _to_host(e),
            err_msg=f'{name}: output {i} depends on the layout',
            **case.record.tolerance(case.dtype, 'forward'))
    _assert_grads_close(
        case, _input_grads(case, candidates, y_grads, inputs=views),
        expected_grads, f'depends on the layout ({layouts})')
    for i, (v, c) in enumerate(zip(views, contiguous)):
        numpy.testing.assert_array_equal(
            _to_host(v), _to_host(c),
            err_msg=f'{name}: input {i} was modified')


def check_double_backward(case, draw):
    """Second-order gradients agree with finite differences of the
    first-order ones."""
    no_grads = case.record.no_grads or (False,) * len(case.inputs)
    outputs = case.run()
    differentiated = [x for x, skip in zip(case.inputs, no_grads)
                      if not skip]
    # The output gradients are inputs of the second-order check, and its
    # ``dtype`` option casts every input: only right where the outputs
    # follow the inputs' dtype.
    follows = case.record.output_dtype is None
    gradient_check.check_double_backward(
        case.call, case.inputs, _draw_like(draw, outputs, case.device),
        _draw_like(draw, differentiated, case.device),
        eps=case.record.eps[case.dtype], no_grads=case.record.no_grads,
        dtype=numpy.float64 if follows else None,
        **_tolerance(case, outputs, 'double_backward'))


def check_double_backward_subset(case, draw):
    """Where only some inputs, and perhaps not the output gradients,
    require a gradient, the second-order gradients they get equal those
    they get when everything requires one (and the others get none): the
    first-order gradient nodes' backward gets a subset of its targets."""
    candidates = subset_candidates(case)
    chosen = draw(st.sets(st.sampled_from(candidates), min_size=1,
                          max_size=len(candidates)))
    # Not all of them: that is check_double_backward's case.
    gys_require = draw(st.booleans()) and len(chosen) < len(candidates)
    y_grads = _draw_like(draw, case.run(), case.device)
    x_grad_grads = dict(zip(candidates, _draw_like(
        draw, [case.inputs[i] for i in candidates], case.device)))
    part = _second_order_grads(case, chosen, gys_require, y_grads,
                               x_grad_grads)
    # Everything requires a gradient, and the second-order output is the
    # same: the inputs left out get zero gradients of their gradients.
    xp = case.device.xp
    full = _second_order_grads(case, candidates, True, y_grads, {
        i: g if i in chosen else xp.zeros_like(g)
        for i, g in x_grad_grads.items()})
    what = (f'of second order changes when only inputs {sorted(chosen)}'
            f'{" and the output gradients" if gys_require else ""} '
            f'require one')
    for i in candidates:
        assert i in chosen or part[0][i] is None, (
            f'{case.record.name}: input {i} requires no gradient but got '
            f'one of second order when only inputs {sorted(chosen)} do')
    _assert_grads_close(case, part[0], [
        g if i in chosen else None for i, g in enumerate(full[0])], what)
    if gys_require:
        _assert_grads_close(case, part[1], full[1], what,
                            of='output gradient', like=y_grads)
    for i, g in enumerate(part[1]):
        assert gys_require or g is None, (
            f'{case.record.name}: output gradient {i} requires no gradient '
            f'but got one of second order')


def _second_order_grads(case, requiring, gys_require, y_grads,
                        x_grad_grads):
    """The gradients of the inputs and of the output gradients of
    ``sum(gx * x_grad_grads)`` over the inputs ``requiring`` a gradient
    (``gx`` their first-order gradients, built as a graph)."""
    xs = [Variable(x, requires_grad=i in requiring)
          for i, x in enumerate(case.inputs)]
    ys = _as_tuple(case.call(*xs))
    gys = [Variable(gy, requires_grad=gys_require) for gy in y_grads]
    pairs = [(y, gy) for y, gy in zip(ys, gys)
             if y.dtype.kind == 'f' and y.creator_node is not None]
    targets = [xs[i] for i in requiring]
    gxs = grad([y for y, _ in pairs], targets, [gy for _, gy in pairs],
               enable_double_backprop=True)
    # The products gx * x_grad_grads each get the gradient 1.
    terms = [gx * x_grad_grads[i] for gx, i in zip(gxs, requiring)
             if gx is not None and gx.creator_node is not None]
    if terms:
        backward(terms, [case.device.xp.ones_like(t.array) for t in terms])
    return [x.grad for x in xs], [gy.grad for gy in gys]


def check_no_graph(case):
    """Under no_backprop_mode no output has a creator."""
    with no_backprop_mode():
        outputs = case.run(requires_grad=True)
    for i, y in enumerate(outputs):
        assert y.creator_node is None, (
            f'{case.record.name}: output {i} was created by '
            f'{y.creator_node.label} under no_backprop_mode')


def check_zero_size(case, draw):
    """A case with a zero-size input or output runs forward and backward
    correctly."""
    arrays = case.host + tuple(y.array for y in case.run())
    assert any(a.size == 0 for a in arrays), (
        f'{case.record.name}: no zero-size input or output was drawn under '
        f'zero_size_shapes(); draw its shapes with shapes(), or declare '
        f'zero_size=False with a reason')
    check_outputs(case)
    if case.record.reference is not None:
        check_forward(case)
    check_backward(case, draw)


def _as_tuple(outputs):
    return tuple(outputs) if isinstance(outputs, (tuple, list)) else (
        outputs,)


def _to_host(array):
    return _HOST.send_array(array)


def _least_precise(*dtypes):
    return max((numpy.dtype(d) for d in dtypes),
               key=lambda d: numpy.finfo(d).eps)


def _tolerance(case, outputs, check):
    """The tolerance of the least precise of the inputs and outputs."""
    return case.record.tolerance(
        _least_precise(case.dtype, *[y.dtype for y in outputs]), check)


def _draw_like(draw, arrays, device):
    """Random arrays of the shapes and dtypes of ``arrays``, on
    ``device`` (output gradients and their gradients)."""
    return tuple(device.send([
        draw(floats(shape=a.shape, dtype=a.dtype)) for a in arrays]))

