"""Programs of Chainer's documentation run unchanged through
``import chainer`` and learn."""
import json
import subprocess
import sys
from pathlib import Path

import numpy
import pytest

REPO = Path(__file__).resolve().parents[3]
GLANCE = REPO / 'examples' / 'glance' / 'glance.py'
MUSHROOMS = REPO.parent / 'shared' / 'data' / 'mushrooms.csv'


def _write_mushrooms(path, rows=1000):
    """The first rows of the seed's mushrooms table, or where it is not
    beside the repository, a table of the same form whose class follows
    the odor column."""
    if MUSHROOMS.exists():
        lines = MUSHROOMS.read_text().splitlines()[:rows + 1]
    else:
        rng = numpy.random.RandomState(0)
        header = 'class,' + ','.join(f'f{i}' for i in range(22))
        lines = [header]
        for _ in range(rows):
            features = rng.choice(list('abcdef'), 22)
            label = 'p' if features[4] in 'abc' else 'e'
            lines.append(','.join([label, *features]))
    path.write_text('\n'.join(lines) + '\n')


@pytest.mark.skipif(not GLANCE.exists(), reason='examples/ not beside')
def test_chainer_at_a_glance_learns(tmp_path):
    pytest.importorskip('matplotlib', reason='kusari-chainer[plot] absent')
    _write_mushrooms(tmp_path / 'mushrooms.csv')
    run = subprocess.run([sys.executable, str(GLANCE)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert 'Predicted ' in run.stdout
    log = json.loads((tmp_path / 'result' / 'log').read_text())
    assert len(log) == 50
    assert log[-1]['validation/main/accuracy'] > 0.85
    assert log[-1]['main/loss'] < log[0]['main/loss']
    for name in ('loss.png', 'accuracy.png', 'cg.dot',
                 'snapshot_iter_140'):
        assert (tmp_path / 'result' / name).exists(), name
