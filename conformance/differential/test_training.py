"""Kusari's training tools against the real Chainer 7.8.1: the same short
deterministic trainings (``training_cases``) run here and in the oracle's
interpreter (``oracle_training.py``), and everything they observe must
agree: log entries, lr curves, trigger fires, batch orders, snapshots
(key sets and values), a Chainer snapshot resumed by Kusari, iterators.
"""
import json
import sys
from pathlib import Path

import chainer  # Kusari's drop-in
import numpy
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import training_cases as cases  # NOQA: E402 (on the path set above)

FLOAT32 = {'rtol': 1e-5, 'atol': 1e-6}
FLOAT64 = {'rtol': 1e-10, 'atol': 1e-12}
# Measured time since the start of training: never equal.
TIMES = ('/_snapshot_elapsed_time',)
# float64 values computed from the float32 training (logged means, a value
# trigger's best mean and running sums): compared with the float32
# tolerance.
FROM_FLOAT32 = ('/log_', '/best_value', '/_summaries/')
# What Kusari's snapshots hold beyond Chainer's: the state of the random
# number generators (docs/guide/trainer.md). Chainer ignores it on loading
# (test_kusari_snapshot_resumes_in_chainer).
KUSARI_ONLY = ('/random_state/',)
GROUPS = (['main', 'main_shuffled', 'snapshot', 'iterators', 'fail',
           'statistics']
          + [f'shift_{name}' for name in sorted(
              set(cases.SHIFTS) - set(cases.KNOWN_DIFFERENCES))]
          + [f'stop_{name}' for name in cases.STOPS])


@pytest.fixture(scope='module')
def inputs():
    return cases.shared_inputs()


@pytest.fixture(scope='module')
def oracle(run_oracle, inputs):
    return run_oracle('oracle_training.py', inputs)


@pytest.fixture(scope='module')
def kusari(inputs, tmp_path_factory):
    return cases.evaluate(chainer, inputs, str(tmp_path_factory.mktemp(
        'kusari_training')))


def _without_times(log):
    return [{k: v for k, v in entry.items() if k != 'elapsed_time'}
            for entry in json.loads(log)]


def _assert_same(key, ours, theirs):
    ours = numpy.asarray(ours)
    assert ours.dtype.kind == theirs.dtype.kind, key
    assert ours.shape == theirs.shape, key
    if theirs.dtype.kind == 'U':
        if key.endswith('/_log'):  # LogReport's state: a JSON log
            ours, theirs = (_without_times(str(log))
                            for log in (ours, theirs))
            assert len(ours) == len(theirs), key
            for mine, chainers in zip(ours, theirs):
                assert mine == pytest.approx(chainers, rel=1e-5,
                                             abs=1e-6), key
        else:
            assert str(ours) == str(theirs), key
        return
    single = theirs.dtype == numpy.float32 or any(
        part in key for part in FROM_FLOAT32)
    numpy.testing.assert_allclose(ours, theirs, err_msg=key,
                                  **(FLOAT32 if single else FLOAT64))


def test_known_differences_are_cases():
    assert set(cases.KNOWN_DIFFERENCES) <= set(cases.SHIFTS) | cases.STATES


@pytest.mark.parametrize('group', GROUPS)
def test_scenario(group, oracle, kusari):
    prefix = f'{group}/'
    ours = {k for k in kusari if k.startswith(prefix)
            and not any(part in k for part in KUSARI_ONLY)}
    theirs = {k for k in oracle.files if k.startswith(prefix)}
    assert ours == theirs
    assert ours
    for key in sorted(theirs):
        if not key.endswith(TIMES):
            _assert_same(key, kusari[key], oracle[key])


def test_summaries_sum_in_float64(kusari, oracle):
    keys = [k for k in oracle.files if '/_summaries/' in k
            and k.endswith(('/_x', '/_x2'))]
    assert keys
    assert [numpy.asarray(kusari[k]).dtype for k in keys] == [
        oracle[k].dtype for k in keys]


def _assert_resumed(resumed, oracle):
    """A resumed run fires as Chainer's resumed run and ends with the
    parameters of Chainer's uninterrupted one."""
    assert resumed
    for name, value in resumed.items():
        references = ['resumed/' + name]
        if name.startswith('param'):
            references.append('snapshot/' + name)
        for reference in references:
            _assert_same(reference, value, oracle[reference])


def test_chainer_snapshot_resumes_in_kusari(inputs, oracle, tmp_path):
    # Chainer's snapshot at SNAPSHOT_AT, loaded into Kusari's trainer and
    # run on.
    prefix = 'snapshot/snapshot/'
    path = tmp_path / 'chainer_snapshot.npz'
    numpy.savez(path, **{k[len(prefix):]: oracle[k] for k in oracle.files
                         if k.startswith(prefix)})
    rng = {k.split('/')[-1]: oracle[k] for k in oracle.files
           if k.startswith('snapshot/rng/')}
    _assert_resumed(cases.resume_run(
        chainer, inputs, str(tmp_path / 'out'), str(path), rng), oracle)


def test_kusari_snapshot_resumes_in_chainer(run_oracle, inputs, oracle,
                                            kusari):
    # The other way round: Kusari's snapshot, resumed by Chainer.
    given = dict(inputs)
    for prefix, into in (('snapshot/snapshot/', 'resume/'),
                         ('snapshot/rng/', 'resume_rng/')):
        given.update({into + k[len(prefix):]: v for k, v in kusari.items()
                      if k.startswith(prefix)})
    resumed = run_oracle('oracle_training.py', given)
    prefix = 'resumed/'
    _assert_resumed({k[len(prefix):]: resumed[k] for k in resumed.files
                     if k.startswith(prefix)}, oracle)
