"""The declarative conformance record of a link, and the registry of them.

One record per link class of ``kusari.links.layers``, or per variant of
one (``'Linear:nobias'``: the part before the colon names the class). A
record says how to build the link, how to draw its inputs and what the
documented function applied to its parameters gives; the generic checks
of :mod:`harness.link_checks` do the rest. A link class that cannot have a
record gets a written reason in ``NO_LINK_SPEC``.
"""
import dataclasses
from typing import Callable, Optional

import numpy

from harness.record import merged_eps
from harness.record import merged_tolerances

LINK_RECORDS = {}
NO_LINK_SPEC = {}

FLOAT16, FLOAT32, FLOAT64 = (numpy.dtype(t) for t in ('float16', 'float32',
                                                      'float64'))
LINK_DTYPES = (FLOAT16, FLOAT32, FLOAT64)

# Both sides of the forward check run the same functions on the same
# arrays: only the order of floating-point sums may differ. The numerical
# gradients are taken in float64; float16 and float32 tolerances absorb
# the rounding of the analytic gradient.
DEFAULT_TOLERANCES = {
    FLOAT16: {'forward': {'atol': 1e-3, 'rtol': 1e-2},
              'backward': {'atol': 5e-2, 'rtol': 5e-2}},
    FLOAT32: {'forward': {'atol': 1e-6, 'rtol': 1e-5},
              'backward': {'atol': 1e-3, 'rtol': 1e-2}},
    FLOAT64: {'forward': {'atol': 1e-12, 'rtol': 1e-10},
              'backward': {'atol': 1e-6, 'rtol': 1e-5}},
}
# Finite differences of every dtype are taken on float64 copies of the
# inputs and parameters.
DEFAULT_EPS = {FLOAT16: 1e-3, FLOAT32: 1e-4, FLOAT64: 1e-4}


@dataclasses.dataclass(frozen=True)
class LinkRecord:
    """How to build, call and check one link; see :func:`link_record`."""

    name: str
    build: Callable
    inputs: Callable
    reference: Callable
    call: Callable
    lazy: Optional[Callable]
    no_grads: Optional[tuple]
    tolerances: dict
    eps: dict
    reason: Optional[str]
    device_draws: bool = False

    @property
    def link_name(self):
        """The class name (in ``kusari.links.layers``) this record covers."""
        return self.name.partition(':')[0]

    def tolerance(self, dtype, check):
        """``{'atol': ..., 'rtol': ...}`` of ``check`` for ``dtype``."""
        return self.tolerances[numpy.dtype(dtype)][check]

    def __repr__(self):
        return f'<link record {self.name}>'


def _call(link, *inputs):
    return link(*inputs)


def link_record(name, build, inputs, reference, call=_call, lazy=None,
                no_grads=None, tolerances=None, eps=None, reason=None,
                device_draws=False):
    """Declare and register the conformance record of a link.

    Args:
        name: the class name in ``kusari.links.layers``, with
            ``:variant`` when it has several records.
        build: ``build()`` returning the link; it is called under
            ``using_config('dtype', dtype)``, so default initializers give
            the dtype under test.
        inputs: ``inputs(rng)`` returning a tuple of NumPy arrays (float
            ones are drawn as float64 and cast to the dtype under test;
            integer ones are labels, given no gradient).
        reference: ``reference(link, *inputs)`` computing the outputs with
            the documented function applied to the link's parameter arrays
            (``link.W.array``, ...): a Variable, an array or a tuple.
        call: ``call(link, *variables)`` giving the outputs; by default
            ``link(*variables)``. Stateful links set their state here, so
            that repeated calls give the same outputs.
        lazy: ``lazy()`` building the same link with its input size left
            to the first call; None (with a ``reason``) where the link has
            no such option.
        no_grads: one bool per input: True where no gradient flows.
        tolerances: overrides of :data:`DEFAULT_TOLERANCES`, as
            ``{dtype: {check: {'atol': ..., 'rtol': ...}}}``.
        eps: overrides of :data:`DEFAULT_EPS`, as ``{dtype: step}``.
        reason: why a check is turned off (required without ``lazy``).
        device_draws: the link draws random numbers from its device's
            generator (negative samples), so its outputs on another
            device are compared with the reference there, not with the
            CPU's.

    Returns:
        The registered :class:`LinkRecord`.
    """
    if name in LINK_RECORDS:
        raise ValueError(f'link_record: {name!r} is already registered')
    if lazy is None and not reason:
        raise ValueError(f'link_record {name!r}: without lazy, give the '
                         f'reason the link has no lazy initialisation')
    entry = LinkRecord(
        name, build, inputs, reference, call, lazy,
        None if no_grads is None else tuple(no_grads),
        merged_tolerances(tolerances or {}, DEFAULT_TOLERANCES),
        merged_eps(eps or {}, DEFAULT_EPS), reason, device_draws)
    LINK_RECORDS[name] = entry
    return entry


def no_link_spec(name, reason):
    """Record why the link class ``name`` has no conformance record."""
    if not reason:
        raise ValueError(f'no_link_spec {name!r}: a reason is required')
    NO_LINK_SPEC[name] = reason
