"""Programs of Chainer's documentation run unchanged through
``import chainer`` and learn: "Chainer at a Glance" on the real mushrooms
table, "MNIST using Trainer" and the "RNN Language Models" tutorial, the
last two on data sets in their real file formats served by a local mirror
(``KUSARI_DATASET_MIRROR``)."""
import functools
import gzip
import http.server
import json
import os
import shutil
import struct
import subprocess
import sys
import threading
from pathlib import Path

import numpy
import pytest

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / 'examples'
GLANCE = EXAMPLES / 'glance' / 'glance.py'
MUSHROOMS = REPO / 'data' / 'mushrooms.csv'
MNIST_PROGRAM = EXAMPLES / 'mnist' / 'train_mnist.py'
PTB_PROGRAM = EXAMPLES / 'ptb_tutorial' / 'train_ptb_tutorial.py'

needs_examples = pytest.mark.skipif(
    not EXAMPLES.exists(), reason='examples/ is not beside this package')


@pytest.fixture
def mirror(tmp_path):
    """A local HTTP server for the files put under the returned directory,
    and the environment that makes the datasets download from it into a
    fresh dataset root."""
    directory = tmp_path / 'mirror'
    directory.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler,
                                directory=str(directory))
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = {'KUSARI_DATASET_MIRROR': f'http://127.0.0.1:{server.server_port}',
           # Made-up files in the real formats: not the published ones.
           'KUSARI_DATASET_VERIFY': '0',
           'CHAINER_DATASET_ROOT': str(tmp_path / 'root')}
    try:
        yield directory, env
    finally:
        server.shutdown()
        server.server_close()


def _run(program, cwd, *args, env=None):
    """Run ``program`` in ``cwd``; its stdout, after checking it ran."""
    # The programs' matrices are small: more BLAS threads only contend.
    env = {**os.environ, 'OPENBLAS_NUM_THREADS': '1', **(env or {})}
    run = subprocess.run([sys.executable, str(program), *args], cwd=cwd,
                         env=env, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr
    return run.stdout


@needs_examples
@pytest.mark.skipif(not MUSHROOMS.exists(), reason='data/ absent')
def test_chainer_at_a_glance_learns(tmp_path):
    """The whole program (50 epochs) on the whole table."""
    shutil.copy(MUSHROOMS, tmp_path / 'mushrooms.csv')
    stdout = _run(GLANCE, tmp_path)
    assert 'Predicted ' in stdout
    log = json.loads((tmp_path / 'result' / 'log').read_text())
    assert len(log) == 50
    assert log[-1]['validation/main/accuracy'] > 0.95
    assert log[-1]['main/loss'] < log[0]['main/loss'] / 3
    for name in ('loss.png', 'accuracy.png', 'cg.dot', 'snapshot_iter_1138',
                 'snapshot_iter_2275'):
        assert (tmp_path / 'result' / name).exists(), name


def _write_idx_mnist(directory, rng):
    """A learnable MNIST look-alike in the real IDX gz files: the digit
    class sets which 7x7 block of the 28x28 image is bright."""
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


@needs_examples
def test_mnist_using_trainer_learns(tmp_path, mirror):
    """The tutorial's program downloads MNIST (from the mirror), trains,
    snapshots, and predicts from the saved model."""
    directory, env = mirror
    _write_idx_mnist(directory / 'mnist', numpy.random.RandomState(0))
    work = tmp_path / 'work'
    work.mkdir()
    stdout = _run(MNIST_PROGRAM, work, env=env)
    log = json.loads((work / 'mnist_result' / 'log').read_text())
    assert len(log) == 10
    assert log[-1]['validation/main/accuracy'] > 0.9
    label = int(stdout.split('label:')[1].split()[0])
    predicted = int(stdout.split('predicted_label:')[1].split()[0])
    assert predicted == label
    assert (work / 'mnist_result' / 'snapshot_epoch-10').exists()


PTB_SENTENCES = ('the cat sat on the mat', 'a dog ran in the park',
                 'the bird sang a song', 'my friend ate an apple',
                 'the sun rose over the hill')
PTB_VOCABULARY = 23   # the sentences' 22 words and <eos>


def _write_ptb(directory, rng):
    """Penn Tree Bank text files (a sentence a line, each with a space
    before and after) of a few sentences in random order."""
    directory.mkdir(parents=True)
    for split, count in (('train', 300), ('valid', 30), ('test', 30)):
        lines = [f' {PTB_SENTENCES[i]} \n'
                 for i in rng.randint(0, len(PTB_SENTENCES), count)]
        (directory / f'ptb.{split}.txt').write_text(''.join(lines))


def _test_perplexity(stdout):
    return float(stdout.split('test perplexity:')[1].split()[0])


@needs_examples
@pytest.mark.parametrize('args, epochs, max_perplexity', [
    # Learning: the next word is nearly always determined by the words so
    # far, so the perplexity falls far below the vocabulary's 23.
    (('--unit', '32', '--epoch', '10', '-b', '10', '-l', '10'), 10, 3.),
    # The tutorial's quick mode: 100 words of each split, 39 epochs.
    (('--test', '--unit', '32'), 39, float(PTB_VOCABULARY) * 2),
], ids=['learns', 'test-mode'])
def test_rnn_language_model_tutorial(tmp_path, mirror, args, epochs,
                                     max_perplexity):
    directory, env = mirror
    _write_ptb(directory / 'ptb', numpy.random.RandomState(0))
    stdout = _run(PTB_PROGRAM, tmp_path, *args, env=env)
    assert f'#vocab = {PTB_VOCABULARY}' in stdout
    assert f'epoch / {epochs} epochs' in stdout   # the progress bar
    assert _test_perplexity(stdout) < max_perplexity
    with numpy.load(tmp_path / 'model.npz') as model:
        assert model['predictor/embed/W'].shape == (PTB_VOCABULARY, 32)
    assert list((tmp_path / 'result').glob('snapshot_iter_*'))
    assert list((tmp_path / 'result').glob('model_iter_*'))
