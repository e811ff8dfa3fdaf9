"""Kusari's core API against the real Chainer 7.8.1: the same cases
(``core_cases``: Variable, backward and grad, Link, Chain, ChainList,
Sequential, configuration, utils, gradient checks, function hooks) run
here and in the oracle's interpreter (``oracle_core.py``), and their
values, shapes, dtypes, returned types, texts and error types must agree.
"""
import sys
import warnings
from pathlib import Path

import chainer  # Kusari's drop-in
import numpy
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import core_cases as cases  # NOQA: E402 (on the path set above)

TOLERANCES = {numpy.dtype(numpy.float16): {'rtol': 1e-2, 'atol': 1e-3},
              numpy.dtype(numpy.float32): {'rtol': 1e-5, 'atol': 1e-6},
              numpy.dtype(numpy.float64): {'rtol': 1e-10, 'atol': 1e-12}}


@pytest.fixture(scope='module')
def inputs():
    return cases.shared_inputs()


@pytest.fixture(scope='module')
def oracle(run_oracle, inputs):
    return run_oracle('oracle_core.py', inputs)


@pytest.fixture(scope='module')
def kusari(inputs):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return cases.evaluate(chainer, inputs)


def _known(key):
    return key.startswith(tuple(cases.KNOWN_DIFFERENCES))


def _same(ours, theirs):
    """Whether two results agree: dtype, shape, then values (floats within
    the tolerance of their dtype)."""
    ours = numpy.asarray(ours)
    if (ours.dtype, ours.shape) != (theirs.dtype, theirs.shape):
        return False
    if theirs.dtype.kind in 'fc':
        return numpy.allclose(ours, theirs, equal_nan=True,
                              **TOLERANCES[theirs.dtype])
    return numpy.array_equal(ours, theirs)


def _keys(results, prefix, known):
    return {k for k in results if k.startswith(prefix) and _known(k) == known}


@pytest.mark.parametrize('name', sorted(cases.CASES))
def test_case(name, kusari, oracle):
    ours = _keys(kusari, f'{name}/', known=False)
    theirs = _keys(oracle.files, f'{name}/', known=False)
    if not (ours or theirs):
        assert name in cases.KNOWN_DIFFERENCES
        return
    assert ours == theirs
    differing = {k: (kusari[k], oracle[k]) for k in sorted(theirs)
                 if not _same(kusari[k], oracle[k])}
    assert not differing


def test_known_differences_still_differ(kusari, oracle):
    # A difference that goes away must rejoin the compared set.
    for prefix in cases.KNOWN_DIFFERENCES:
        ours = _keys(kusari, prefix, known=True)
        theirs = _keys(oracle.files, prefix, known=True)
        assert ours or theirs, prefix
        assert ours != theirs or not all(
            _same(kusari[k], oracle[k]) for k in ours), prefix
