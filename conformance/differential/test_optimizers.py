"""Kusari's optimizers and optimizer hooks against the real Chainer
7.8.1: the cases of ``optimizer_cases`` run here (on the fused Numba
kernels and on the NumPy updates) and in the oracle's interpreter
(``oracle_optimizers.py``); parameters, the serialized optimizer state
(key names and values) and the per-step values must agree; Chainer's
snapshot taken mid-run, resumed by Kusari, must end where Chainer's own
resumed run ends.
"""
import sys
from pathlib import Path

import chainer  # Kusari's drop-in
import numpy
import pytest

from kusari.array import jit
from kusari.training.optimizers import _fused_cpu

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import optimizer_cases as cases  # NOQA: E402 (on the path set above)

TOLERANCE = {'float16': {'atol': 1e-3, 'rtol': 1e-2},
             'float32': {'atol': 1e-6, 'rtol': 1e-5},
             'float64': {'atol': 1e-12, 'rtol': 1e-10}}
COMPARED = sorted(set(cases.CASES) - set(cases.KNOWN_DIFFERENCES))
RESUMED = 'resumed/'
KNOWN_RESUMED = sorted(case[len(RESUMED):] for case in
                       cases.KNOWN_DIFFERENCES if case.startswith(RESUMED))


@pytest.fixture(scope='module')
def inputs():
    return cases.shared_inputs()


@pytest.fixture(scope='module')
def oracle(run_oracle, inputs):
    return run_oracle('oracle_optimizers.py', inputs)


@pytest.fixture(scope='module', params=['fused', 'numpy'])
def kusari(request, inputs):
    """Kusari's results on the fused CPU kernels (where Numba is
    installed) and on the rules' NumPy updates."""
    saved = jit.numba_module, dict(_fused_cpu._compiled)
    if request.param == 'fused':
        pytest.importorskip('numba')
    else:
        jit.numba_module, _fused_cpu._compiled = (lambda: None), {}
    try:
        yield cases.evaluate(chainer, inputs)
    finally:
        jit.numba_module, _fused_cpu._compiled = saved[0], saved[1]


def test_known_differences_are_cases():
    names = {case.removeprefix(RESUMED) for case in cases.KNOWN_DIFFERENCES}
    assert names <= set(cases.CASES)


def _chainers(oracle, prefix):
    return {k[len(prefix):]: oracle[k] for k in oracle.files
            if k.startswith(prefix)}


def _error_type(results):
    return str(results['error']).split(':')[0] if 'error' in results \
        else None


def _assert_same(case, ours, theirs):
    # where Chainer raises, Kusari must raise the same
    assert _error_type(ours) == _error_type(theirs), (
        ours.get('error'), theirs.get('error'))
    assert set(theirs) <= set(ours)
    extra = {key.split('/')[-1] for key in set(ours) - set(theirs)}
    assert extra <= set(cases.EXTRA_KEYS), extra
    tolerance = TOLERANCE[cases.CASES[case][2].get('dtype', 'float64')]
    for key, value in theirs.items():
        assert ours[key].shape == value.shape, key
        if value.dtype == object:  # None: a state not made yet
            assert ours[key].dtype == object and ours[key].item() is None
            assert value.item() is None, key
        else:
            numpy.testing.assert_allclose(ours[key], value, err_msg=key,
                                          **tolerance)


@pytest.mark.parametrize('case', COMPARED)
def test_matches_chainer(case, oracle, kusari):
    prefix = f'{case}/'
    theirs = _chainers(oracle, prefix)
    theirs = {k: v for k, v in theirs.items()
              if not k.startswith(RESUMED)}
    _assert_same(case, {k[len(prefix):]: v for k, v in kusari.items()
                        if k.startswith(prefix)}, theirs)


@pytest.mark.parametrize('case', sorted(
    set(cases.KNOWN_DIFFERENCES) - {RESUMED + c for c in KNOWN_RESUMED}))
def test_known_differences_still_differ(case, inputs, oracle):
    prefix = f'{case}/'
    ours = {k[len(prefix):]: v for k, v in cases.evaluate(
        chainer, inputs, [case]).items()}
    theirs = {k: v for k, v in _chainers(oracle, prefix).items()
              if not k.startswith(RESUMED)}
    with pytest.raises(AssertionError):
        _assert_same(case, ours, theirs)


def _resumed(case, inputs, snapshot):
    mid = {k: v for k, v in snapshot.items() if k.startswith('mid/')}
    return cases.run(chainer, inputs, case, resume=mid)


def _final(results):
    """What a run resumed at MID must record, from an uninterrupted
    run's results."""
    final = {k: v for k, v in results.items()
             if not k.startswith(('mid/', RESUMED))}
    final['observed'] = final['observed'][cases.MID:]
    return final


@pytest.mark.parametrize('case', sorted(
    set(COMPARED) - set(KNOWN_RESUMED)))
def test_resumes_chainer_snapshot(case, inputs, oracle):
    _assert_same(case, _resumed(case, inputs, _chainers(
        oracle, f'{case}/')), _chainers(oracle, f'{case}/{RESUMED}'))


@pytest.mark.parametrize('case', KNOWN_RESUMED)
def test_resumes_chainer_snapshot_as_chainer_should(case, inputs, oracle):
    # Chainer's own resumed run differs from its uninterrupted one; Kusari
    # resuming Chainer's snapshot ends where the uninterrupted run ends.
    theirs = _chainers(oracle, f'{case}/')
    ours = _resumed(case, inputs, theirs)
    _assert_same(case, ours, _final(theirs))
    with pytest.raises(AssertionError):
        _assert_same(case, ours, _chainers(oracle, f'{case}/{RESUMED}'))


@pytest.mark.parametrize('case', COMPARED)
def test_resumes_own_snapshot_exactly(case, inputs, kusari):
    # With the entries of EXTRA_KEYS, a resumed run is the uninterrupted
    # one.
    prefix = f'{case}/'
    own = {k[len(prefix):]: v for k, v in kusari.items()
           if k.startswith(prefix)}
    _assert_same(case, _resumed(case, inputs, own), _final(own))
