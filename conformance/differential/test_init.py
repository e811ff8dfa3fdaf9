"""Kusari's initializers, link hooks, batch converters and device helpers
against the real Chainer 7.8.1: the same scenarios (``init_cases``) run
here and in the oracle's interpreter (``oracle_init.py``), and must give
the same values, shapes, dtypes, returned types and error types.
"""
import sys
from pathlib import Path

import chainer  # Kusari's drop-in
import numpy
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import init_cases as cases  # NOQA: E402 (on the path set above)

TOLERANCES = {numpy.dtype(numpy.float16): {'rtol': 1e-2, 'atol': 1e-3},
              numpy.dtype(numpy.float32): {'rtol': 1e-5, 'atol': 1e-6},
              numpy.dtype(numpy.float64): {'rtol': 1e-10, 'atol': 1e-12}}
GROUPS = ([f'init/{name}/' for name in cases.INITIALIZERS]
          + ['init/rng/', 'options/', 'link_initial/']
          + [f'spectral/{name}/' for name in cases.HOOKED_LINKS]
          + ['spectral/float64/', 'spectral/error/', 'standardization/',
             'timer/', 'concat/', 'to_device/', 'converter/', 'async/',
             'updater_device/', 'xp/', 'device/', 'chainer_get_device/',
             'equality/', 'using_device/', 'copyto/', 'cuda/', 'resident/'])


@pytest.fixture(scope='module')
def kusari():
    return cases.evaluate(chainer)


@pytest.fixture(scope='module')
def oracle(run_oracle):
    return run_oracle('oracle_init.py', {})


def _keys(keys, prefix):
    return {k for k in keys if k.startswith(prefix)}


def _compared(keys, prefix):
    known = tuple(cases.KNOWN_DIFFERENCES)
    return {k for k in _keys(keys, prefix) if not k.startswith(known)}


def _assert_same(key, ours, theirs):
    ours = numpy.asarray(ours)
    assert ours.dtype == theirs.dtype, (key, ours, theirs)
    assert ours.shape == theirs.shape, key
    if theirs.dtype.kind in 'fc':
        numpy.testing.assert_allclose(ours, theirs, err_msg=key,
                                      **TOLERANCES[theirs.dtype])
    else:
        numpy.testing.assert_array_equal(ours, theirs, err_msg=key)


@pytest.mark.parametrize('prefix', GROUPS)
def test_same_results(prefix, kusari, oracle):
    mine = _compared(kusari, prefix)
    chainers = _compared(oracle.files, prefix)
    assert mine == chainers
    assert mine
    for key in sorted(chainers):
        _assert_same(key, kusari[key], oracle[key])


def test_every_result_is_in_a_group(kusari, oracle):
    for key in set(kusari) | set(oracle.files):
        assert key.startswith(tuple(GROUPS)), key


def _differs(ours, theirs):
    ours = numpy.asarray(ours)
    if ours.dtype != theirs.dtype or ours.shape != theirs.shape:
        return True
    if theirs.dtype.kind in 'fc':
        return not numpy.allclose(ours, theirs, equal_nan=True,
                                  **TOLERANCES[theirs.dtype])
    return not numpy.array_equal(ours, theirs)


def test_known_differences_still_differ(kusari, oracle):
    # A difference that goes away must rejoin the compared set.
    for prefix in cases.KNOWN_DIFFERENCES:
        mine, chainers = _keys(kusari, prefix), _keys(oracle.files, prefix)
        assert mine | chainers, prefix
        assert mine != chainers or any(
            _differs(kusari[k], oracle[k]) for k in mine), prefix
