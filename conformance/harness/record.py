"""The declarative conformance record, and the registry of them.

One record per function, or per variant of one (``'matmul:batched'``: the
part before the colon names the function covered). The generic checks of
:mod:`harness.checks` read everything they need from it. A public
function that cannot have a record gets a written reason in ``NO_SPEC``.
"""
import dataclasses
from typing import Callable, Optional

import numpy
from hypothesis import strategies as st

from harness.strategies import FLOAT_DTYPES

RECORDS = {}
NO_SPEC = {}
# The names of the records a run collects (conftest's ``--records``); None
# collects all. Parametrizing only these keeps a mutation run's startup short.
_CHOSEN = None

FLOAT16, FLOAT32, FLOAT64 = FLOAT_DTYPES

# The numerical gradients are taken in float64 for every dtype, so the
# backward tolerances only absorb the rounding of the analytic gradient in
# the dtype under test.
DEFAULT_TOLERANCES = {
    FLOAT16: {'forward': {'atol': 1e-3, 'rtol': 1e-2},
              'backward': {'atol': 1e-2, 'rtol': 1e-2},
              'double_backward': {'atol': 5e-2, 'rtol': 5e-2}},
    FLOAT32: {'forward': {'atol': 1e-6, 'rtol': 1e-5},
              'backward': {'atol': 1e-4, 'rtol': 1e-3},
              'double_backward': {'atol': 1e-3, 'rtol': 1e-2}},
    FLOAT64: {'forward': {'atol': 1e-12, 'rtol': 1e-10},
              'backward': {'atol': 1e-7, 'rtol': 1e-6},
              'double_backward': {'atol': 1e-6, 'rtol': 1e-5}},
}
# Finite-difference steps. Inputs of every dtype are perturbed as float64
# copies; float64's tighter tolerances need the smaller truncation error.
DEFAULT_EPS = {FLOAT16: 1e-3, FLOAT32: 1e-3, FLOAT64: 1e-4}


@dataclasses.dataclass(frozen=True)
class Sample:
    """Drawn inputs: arrays (differentiated) and keyword arguments (not)."""

    arrays: tuple
    kwargs: dict


def sample(*arrays, **kwargs):
    """A :class:`Sample` of ``arrays`` and ``kwargs``, for input strategies
    that draw options (an axis, an index) along with the arrays."""
    return Sample(tuple(arrays), kwargs)


def as_sample(drawn):
    """A Sample from what an input strategy drew: a Sample, a tuple or
    list of arrays, or one array."""
    if isinstance(drawn, Sample):
        return drawn
    if isinstance(drawn, (tuple, list)):
        return Sample(tuple(drawn), {})
    return Sample((drawn,), {})


@dataclasses.dataclass(frozen=True)
class Record:
    """How to call, check and draw inputs for one function; see
    :func:`record`."""

    name: str
    func: Callable
    inputs: st.SearchStrategy
    reference: Optional[Callable]
    double_backprop: bool
    dtypes: tuple
    tolerances: dict
    eps: dict
    no_grads: Optional[tuple]
    output_dtype: Optional[Callable]
    zero_size: bool
    any_layout: bool
    reason: Optional[str]

    @property
    def function(self):
        """The public name this record covers."""
        return self.name.partition(':')[0]

    def expected_dtype(self, input_dtype, kwargs):
        """The dtype every output must have."""
        if self.output_dtype is None:
            return input_dtype
        return numpy.dtype(self.output_dtype(**kwargs))

    def tolerance(self, dtype, check):
        """``{'atol': ..., 'rtol': ...}`` of ``check`` for ``dtype``."""
        return self.tolerances[numpy.dtype(dtype)][check]

    def __repr__(self):
        return f'<record {self.name}>'

    def _repr_pretty_(self, printer, cycle):
        # Hypothesis prints the arguments of a failing test: keep it short.
        printer.text(repr(self))


def record(name, func, reference=None, inputs=None, double_backprop=True,
           dtypes=FLOAT_DTYPES, tolerances=None, eps=None, no_grads=None,
           output_dtype=None, zero_size=True, any_layout=True, reason=None):
    """Declare and register the conformance record of a function.

    Args:
        name: the function's public name, with ``:variant`` when it has
            several records.
        func: ``func(*variables, **kwargs)`` returning a Variable or a
            tuple of them.
        reference: the same computation in NumPy/SciPy, on float64
            arrays, returning an array or a tuple; None where none exists.
        inputs: a strategy drawing the input arrays (a tuple, or a
            :class:`Sample` with keyword arguments), or a tuple of
            strategies, one per input array.
        double_backprop: whether the gradient is differentiable again.
        dtypes: the input dtypes checked.
        tolerances: overrides of :data:`DEFAULT_TOLERANCES`, as
            ``{dtype: {check: {'atol': ..., 'rtol': ...}}}``.
        eps: overrides of :data:`DEFAULT_EPS`, as ``{dtype: step}``.
        no_grads: one bool per input array: True where no gradient flows.
        output_dtype: ``output_dtype(**kwargs)`` giving the outputs' dtype
            where it is not the input dtype.
        zero_size: whether the inputs can be drawn zero-size.
        any_layout: whether the function computes the same for an input
            held in any memory layout (a view, F order, stride 0).
        reason: why a check is turned off (required when there is no
            reference, no double backprop, no zero-size case or a result
            that depends on the layout).

    Returns:
        The registered :class:`Record`.
    """
    if name in RECORDS:
        raise ValueError(f'record: {name!r} is already registered')
    if inputs is None:
        raise ValueError(f'record {name!r}: inputs (a strategy) is required')
    if isinstance(inputs, tuple):
        inputs = st.tuples(*inputs)
    if not isinstance(inputs, st.SearchStrategy):
        raise TypeError(f'record {name!r}: inputs must be a strategy or a '
                        f'tuple of strategies, got {type(inputs).__name__}')
    turned_off = (reference is None or not double_backprop or not zero_size
                  or not any_layout)
    if turned_off and not reason:
        raise ValueError(f'record {name!r}: say why (reason=...) it has no '
                         f'reference, double backprop, zero-size case or '
                         f'layout independence')
    dtypes = tuple(numpy.dtype(d) for d in dtypes)
    unknown = [d for d in dtypes if d not in FLOAT_DTYPES]
    if unknown:
        raise ValueError(f'record {name!r}: dtypes must be among '
                         f'{FLOAT_DTYPES}, got {unknown}')
    entry = Record(
        name, func, inputs, reference, double_backprop, dtypes,
        merged_tolerances(tolerances or {}), merged_eps(eps or {}),
        None if no_grads is None else tuple(no_grads), output_dtype,
        zero_size, any_layout, reason)
    RECORDS[name] = entry
    return entry


def choose(names):
    """Collect only the records ``names`` (None: all of them)."""
    global _CHOSEN
    _CHOSEN = None if names is None else frozenset(names)


def chosen():
    """The registered records a run collects, in registration order."""
    return [entry for entry in RECORDS.values()
            if _CHOSEN is None or entry.name in _CHOSEN]


def merged_tolerances(overrides, defaults=None):
    """``defaults`` (those of function records by default) with the
    ``{dtype: {check: {'atol': ..., 'rtol': ...}}}`` overrides applied."""
    merged = {dtype: {check: dict(tolerance) for check, tolerance in
                      checks.items()}
              for dtype, checks in (defaults or DEFAULT_TOLERANCES).items()}
    for dtype, checks in overrides.items():
        known = merged.get(numpy.dtype(dtype), {})
        for check, tolerance in checks.items():
            if check not in known:
                raise ValueError(
                    f'record: no tolerance of the check {check!r} for '
                    f'{numpy.dtype(dtype)} (expected one of '
                    f'{tuple(known)})')
            known[check].update(tolerance)
    return merged


def merged_eps(overrides, defaults=None):
    """``defaults`` (those of function records by default) with the
    ``{dtype: step}`` overrides applied."""
    merged = dict(defaults or DEFAULT_EPS)
    merged.update({numpy.dtype(d): step for d, step in overrides.items()})
    return merged


def no_spec(name, reason):
    """Declare that public function ``name`` has no record, and why."""
    if not reason:
        raise ValueError(f'no_spec: a reason is required for {name!r}')
    if name in NO_SPEC:
        raise ValueError(f'no_spec: {name!r} already has a reason')
    NO_SPEC[name] = reason

