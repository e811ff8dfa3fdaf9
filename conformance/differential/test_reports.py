"""What Kusari's training tools write, against the real Chainer 7.8.1:
the same short deterministic runs (``report_cases``) here and in the
oracle's interpreter (``oracle_reports.py``), and the texts they write
must agree: LogReport files, PrintReport tables, ProgressBar lines (rates
and times masked), the snapshot autoload picks, snapshot file names
(templates, callables, n_retains, every writer), dot graphs, and the
files of PlotReport and VariableStatisticsPlot.
"""
import re
import sys
from pathlib import Path

import chainer  # Kusari's drop-in
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import report_cases as cases  # NOQA: E402 (on the path set above)
import training_cases  # NOQA: E402

# The means of the float32 losses in the logs: the float32 forward of the
# two frameworks may round the last bit apart (summation order), so the
# numbers of a log are compared with the float32 tolerance and the rest
# of its text exactly.
_NUMBER = re.compile(r'-?[0-9][-+.e0-9]*')
FLOAT32 = {'rel': 1e-5, 'abs': 1e-6}


@pytest.fixture(scope='module')
def oracle(run_oracle):
    return run_oracle('oracle_reports.py', training_cases.shared_inputs())


@pytest.fixture(scope='module')
def kusari(tmp_path_factory):
    return cases.evaluate(chainer, training_cases.shared_inputs(),
                          str(tmp_path_factory.mktemp('kusari_reports')))


def _same(key, ours, theirs):
    if key.startswith('log/'):
        numbers = [[float(n) for n in _NUMBER.findall(text)]
                   for text in (ours, theirs)]
        return (_NUMBER.sub('N', ours) == _NUMBER.sub('N', theirs)
                and numbers[0] == pytest.approx(numbers[1], **FLOAT32))
    return ours == theirs


def test_known_differences_are_cases(oracle, kusari):
    assert set(cases.KNOWN_DIFFERENCES) <= set(kusari)


def test_same_cases(oracle, kusari):
    assert set(kusari) == set(oracle.files)
    assert len(kusari) > 40


@pytest.mark.parametrize('scenario', sorted(cases.SCENARIOS))
def test_scenario(scenario, oracle, kusari):
    if scenario == 'plot' and oracle['plot/available'] != 'True':
        pytest.skip("the oracle's Chainer has no matplotlib: its "
                    'PlotReport writes nothing')
    keys = sorted(key for key in kusari if key.startswith(scenario + '/')
                  and key not in cases.KNOWN_DIFFERENCES)
    assert keys
    for key in keys:
        ours, theirs = kusari[key], str(oracle[key])
        assert _same(key, ours, theirs), (
            f'{key}\n--- Kusari\n{ours}\n--- Chainer\n{theirs}')


@pytest.mark.parametrize('key', sorted(cases.KNOWN_DIFFERENCES))
def test_known_differences_still_differ(key, oracle, kusari):
    assert kusari[key] != str(oracle[key]), (
        f'{key} now agrees with Chainer: remove it from KNOWN_DIFFERENCES')
