"""The generic checks every record goes through.

A check gets a :class:`Case` (one drawn example: the record, the dtype
under test, the device, the inputs) and raises AssertionError naming the
record when the function breaks a rule. Numerical gradients are computed
in float64 whatever the dtype under test, so float16 and float32 results
are compared with a precise finite difference.
"""
import dataclasses

import numpy
from hypothesis import strategies as st

from kusari.array import backend
from kusari.autograd import gradient_check
from kusari.autograd import backward
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
    name = case.record.name
    for i in candidates:
        if i not in chosen:
            assert part[i] is None, (
                f'{name}: input {i} requires no gradient but got one '
                f'when only inputs {sorted(chosen)} require one')
            continue
        # None stands for zeros (an input the outputs do not depend on).
        expected, got = (
            numpy.zeros(case.host[i].shape) if g is None else _to_host(g)
            for g in (full[i], part[i]))
        numpy.testing.assert_allclose(
            got, expected, rtol=1e-5, atol=1e-6,
            err_msg=f'{name}: the gradient of input {i} changes when only '
                    f'inputs {sorted(chosen)} require one')


def _input_grads(case, requiring, y_grads):
    xs = [Variable(x, requires_grad=i in requiring)
          for i, x in enumerate(case.inputs)]
    ys = _as_tuple(case.call(*xs))
    pairs = [(y, gy) for y, gy in zip(ys, y_grads)
             if y.dtype.kind == 'f' and y.creator_node is not None]
    if pairs:
        backward([y for y, _ in pairs], [gy for _, gy in pairs])
    return [x.grad for x in xs]


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

