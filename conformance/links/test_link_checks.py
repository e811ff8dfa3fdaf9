"""The link checks themselves: each fails on a link that breaks its rule.
"""
import itertools

import numpy
import pytest

from harness import link_checks
from harness import link_record as link_record_module
from kusari.array import backend
from kusari.autograd import function_node
from kusari.autograd import functions as F
from kusari.autograd.graph_optimizations.static_graph import DynamicGraphError
from kusari.links import layers as L
from links.connection import linear
from links.connection import uniform

_CPU = backend.CpuDevice()
_FLOAT64 = numpy.dtype('float64')


class _DetachedWeight(L.Linear):
    """A Linear whose W gets no gradient."""

    def forward(self, x):
        return F.linear(x, self.W.array, self.b)


class _SharingCopy(L.Linear):
    """A Linear whose copy('copy') shares its arrays."""

    def copy(self, mode='share'):
        return super().copy('share' if mode == 'copy' else mode)


class _UnsavedScale(L.Linear):
    """A Linear with a scale, different in each instance, that is not a
    persistent value."""

    _instances = itertools.count(1)

    def __init__(self, *args):
        super().__init__(*args)
        self.scale = next(self._instances)

    def forward(self, x):
        return super().forward(x) * self.scale


class _OverwrittenGradient(function_node.FunctionNode):
    """x W^T whose backward sets W's gradient instead of adding to it."""

    def __init__(self, param):
        self.param = param

    def forward(self, inputs):
        x, W = inputs
        self.retain_inputs((0, 1))
        return x @ W.T,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        self.param.grad = gy.array.T @ x.array
        return F.matmul(gy, W), None


class _OverwritingLinear(L.Linear):
    """A Linear without bias whose W's gradient is overwritten, not
    accumulated, by each call's backward."""

    def forward(self, x):
        return _OverwrittenGradient(self.W).apply((x, self.W))[0]


class _MemoryOrder(L.Linear):
    """A Linear that reads its input in memory order."""

    def forward(self, x):
        xp = backend.get_array_module(x.array)
        flat = xp.ravel(x.array, order='K').reshape(x.shape)
        return super().forward(flat)


class _MaskedInPython(L.Linear):
    """A Linear of the positive inputs only, masked in Python from the
    input's values: a static replay would reuse the recorded mask."""

    def forward(self, x):
        return super().forward(x * (x.array > 0))


class _NeverInitialized(L.Linear):
    """A lazy Linear whose calls leave W uninitialized."""

    def forward(self, x):
        xp = backend.get_array_module(x.array)
        return F.linear(x, xp.zeros((self.out_size, x.shape[1]), x.dtype))


@pytest.fixture
def record(monkeypatch):
    monkeypatch.setattr(link_record_module, 'LINK_RECORDS', {})

    def make(build, reference=lambda link, x: linear(x, link), **options):
        options.setdefault('lazy', lambda: L.Linear(None, 4))
        return link_record_module.link_record(
            'Linear', build, uniform((2, 3)), reference, **options)
    return make


@pytest.mark.parametrize('check, build, message', [
    (link_checks.check_forward, lambda: L.Linear(3, 4, initial_bias=1),
     'forward differs'),
    (link_checks.check_backward, lambda: _DetachedWeight(3, 4),
     'check_backward failed'),
    (link_checks.check_copy, lambda: _SharingCopy(3, 4),
     "copy\\('copy'\\) shares"),
])
def test_checks_fail_on_broken_links(record, check, build, message):
    broken = record(build, reference=lambda link, x: F.linear(
        x, link.W.array))
    with pytest.raises(AssertionError, match=message):
        check(broken, _FLOAT64, _CPU)


def test_lazy_check_compares_shapes(record):
    broken = record(lambda: L.Linear(3, 4), lazy=lambda: L.Linear(None, 5))
    with pytest.raises(AssertionError, match='lazy initialisation gives'):
        link_checks.check_lazy(broken, _FLOAT64, _CPU)


def test_lazy_check_names_a_parameter_left_uninitialized(record):
    broken = record(lambda: L.Linear(3, 4),
                    lazy=lambda: _NeverInitialized(None, 4))
    with pytest.raises(AssertionError, match=r"'/W': \(None, None\)"):
        link_checks.check_lazy(broken, _FLOAT64, _CPU)


def test_called_twice_check_needs_gradients_to_accumulate(record):
    broken = record(lambda: _OverwritingLinear(3, 4, nobias=True))
    with pytest.raises(AssertionError, match='not twice those of one'):
        link_checks.check_called_twice(broken, _FLOAT64, _CPU)


def test_layouts_check_compares_views(record):
    broken = record(lambda: _MemoryOrder(3, 4))
    with pytest.raises(AssertionError, match="laid out 'fortran'"):
        link_checks.check_layouts(broken, _FLOAT64, _CPU)


def test_serialize_check_compares_outputs(record):
    broken = record(lambda: _UnsavedScale(3, 4), lazy=None, reason='-')
    with pytest.raises(AssertionError, match='loaded link computes'):
        link_checks.check_serialize(broken, _FLOAT64, _CPU)


def test_record_needs_a_reason_without_lazy(record):
    with pytest.raises(ValueError, match='reason'):
        record(lambda: L.Linear(3, 4), lazy=None)


def test_static_replay_check_refuses_data_computed_in_python(record):
    broken = record(lambda: _MaskedInPython(3, 4))
    with pytest.raises(DynamicGraphError, match='outside functions'):
        link_checks.check_static_replay(broken, _FLOAT64, _CPU)
