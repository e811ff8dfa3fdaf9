"""Programs of Chainer's documentation run unchanged through
``import chainer`` and learn."""
import json
import os
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


MNIST_PROGRAM = REPO / 'examples' / 'mnist' / 'train_mnist.py'


def _write_idx_mnist(directory, rng):
    """A learnable MNIST look-alike in the real IDX gz files: the digit
    class sets which 7x7 block of the 28x28 image is bright."""
    import gzip
    import struct
    directory.mkdir(parents=True)
    for prefix, count in (('train', 1280), ('t10k', 256)):
        labels = rng.randint(0, 10, count).astype(numpy.uint8)
        images = rng.randint(0, 60, (count, 28, 28)).astype(numpy.uint8)
        for i, label in enumerate(labels):
            row, col = divmod(int(label), 4)
            images[i, row * 7:row * 7 + 7, col * 7:col * 7 + 7] = 250
        with gzip.open(directory / f'{prefix}-images-idx3-ubyte.gz',
                       'wb') as f:
            f.write(struct.pack('>IIII', 2051, count, 28, 28))
            f.write(images.tobytes())
        with gzip.open(directory / f'{prefix}-labels-idx1-ubyte.gz',
                       'wb') as f:
            f.write(struct.pack('>II', 2049, count))
            f.write(labels.tobytes())


@pytest.mark.skipif(not MNIST_PROGRAM.exists(), reason='examples/ absent')
def test_mnist_using_trainer_learns(tmp_path):
    """The tutorial's program downloads MNIST (from a local server holding
    IDX files), trains, snapshots, and predicts from the saved model."""
    import functools
    import http.server
    import threading
    pytest.importorskip('matplotlib', reason='kusari-chainer[plot] absent')
    _write_idx_mnist(tmp_path / 'mirror' / 'mnist',
                     numpy.random.RandomState(0))
    handler = functools.partial(http.server.SimpleHTTPRequestHandler,
                                directory=str(tmp_path / 'mirror'))
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = {**os.environ,
           'KUSARI_DATASET_MIRROR': f'http://127.0.0.1:{server.server_port}',
           'CHAINER_DATASET_ROOT': str(tmp_path / 'root')}
    work = tmp_path / 'work'
    work.mkdir()
    try:
        run = subprocess.run([sys.executable, str(MNIST_PROGRAM)], cwd=work,
                             env=env, capture_output=True, text=True,
                             timeout=300)
    finally:
        server.shutdown()
    assert run.returncode == 0, run.stderr
    log = json.loads((work / 'mnist_result' / 'log').read_text())
    assert len(log) == 10
    assert log[-1]['validation/main/accuracy'] > 0.9
    label = int(run.stdout.split('label:')[1].split()[0])
    predicted = int(run.stdout.split('predicted_label:')[1].split()[0])
    assert predicted == label
    assert (work / 'mnist_result' / 'snapshot_epoch-10').exists()
