"""The link checks themselves: each fails on a link that breaks its rule.
"""
import itertools

import numpy
import pytest

from harness import link_checks
from harness import link_record as link_record_module
from kusari.array import backend
from kusari.autograd import functions as F
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


def test_serialize_check_compares_outputs(record):
    broken = record(lambda: _UnsavedScale(3, 4), lazy=None, reason='-')
    with pytest.raises(AssertionError, match='loaded link computes'):
        link_checks.check_serialize(broken, _FLOAT64, _CPU)


def test_record_needs_a_reason_without_lazy(record):
    with pytest.raises(ValueError, match='reason'):
        record(lambda: L.Linear(3, 4), lazy=None)
