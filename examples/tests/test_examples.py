"""Every example script runs: its ``--smoke`` mode, in a fresh process.

Also, LeNet learns the bundled handwritten digits, so the examples are
checked on real data without a download.
"""
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1]
# Seed 001's "MNIST using Trainer" as printed: it takes no arguments and
# downloads MNIST, so it has no smoke mode to run here.
# Seed 001's programs as printed there (no --smoke): packages/chainer's
# tests run them unchanged on local data.
AS_PRINTED = {EXAMPLES / 'mnist' / 'train_mnist.py',
              EXAMPLES / 'ptb_tutorial' / 'train_ptb_tutorial.py'}
# Programs for several processes, started by mpiexec (the mpich wheel puts
# it beside the interpreter).
MPI_SCRIPTS = {EXAMPLES / 'mnist_mn' / 'train_mnist_mn.py'}
MPIEXEC = Path(sys.executable).parent / 'mpiexec'
SCRIPTS = sorted(set(EXAMPLES.glob('*/train_*.py')) - AS_PRINTED
                 - MPI_SCRIPTS)
FINAL_LOSS = re.compile(r'final loss: [^0-9-]*(-?[0-9.]+)')
TIMEOUT = 120


def run_example(script, tmp_path, *arguments, launcher=(), env=None):
    """Run ``script`` with ``arguments`` in ``tmp_path`` (through
    ``launcher``, a command prefix); its stdout."""
    completed = subprocess.run(
        [*launcher, sys.executable, str(script), '--out',
         str(tmp_path / 'out'), *arguments],
        cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT,
        env=env)
    assert completed.returncode == 0, (
        f'{script.relative_to(EXAMPLES)} exited with '
        f'{completed.returncode}:\n{completed.stderr[-3000:]}')
    return completed.stdout


def test_readme_lists_every_example():
    readme = (EXAMPLES / 'README.md').read_text(encoding='utf-8')
    listed = set(re.findall(r'^\| (\w+/train_\w+\.py) \|', readme,
                            re.MULTILINE))
    found = {str(s.relative_to(EXAMPLES))
             for s in [*SCRIPTS, *MPI_SCRIPTS]}
    assert listed == found


@pytest.mark.parametrize('script', SCRIPTS,
                         ids=[s.parent.name + '/' + s.stem for s in SCRIPTS])
def test_smoke(script, tmp_path):
    stdout = run_example(script, tmp_path, '--smoke')
    last_line = stdout.strip().splitlines()[-1]
    loss = FINAL_LOSS.match(last_line)
    assert loss, f'the last line is not the final loss: {last_line!r}'
    assert math.isfinite(float(loss.group(1)))


def test_mnist_mn_learns_on_two_processes(tmp_path):
    # The ChainerMN tutorial's program: two ranks, one BLAS thread each.
    pytest.importorskip('chainermn')
    launcher = [str(MPIEXEC), '-launcher', 'fork', '-n', '2']
    env = dict(os.environ, OMP_NUM_THREADS='1', OPENBLAS_NUM_THREADS='1')
    stdout = run_example(EXAMPLES / 'mnist_mn' / 'train_mnist_mn.py',
                         tmp_path, '--smoke', launcher=launcher, env=env)
    assert 'Num process (COMM_WORLD): 2' in stdout
    log = json.loads((tmp_path / 'out' / 'log').read_text())
    assert [entry['epoch'] for entry in log] == [1, 2, 3]
    # 600 examples over two processes, batches of 20: 15 per epoch each.
    assert log[-1]['iteration'] == 45
    assert log[-1]['validation/main/accuracy'] > 0.9
    assert log[-1]['main/loss'] < log[0]['main/loss']


def test_lenet_learns_the_bundled_digits(tmp_path):
    stdout = run_example(EXAMPLES / 'convnet' / 'train_lenet.py', tmp_path,
                         '--digits', '--epoch', '10', '--batchsize', '32')
    accuracy = re.search(r'validation accuracy ([0-9.]+)', stdout)
    assert float(accuracy.group(1)) >= 0.90


@pytest.mark.parametrize('name', ['ptb/train_ptb', 'word2vec/train_word2vec'])
def test_ptb_examples_read_the_dataset_getter(name, tmp_path, monkeypatch):
    # The getter downloads PTB-format files from the mirror into the
    # dataset root: the examples' real-data path, run offline.
    mirror = tmp_path / 'mirror' / 'ptb'
    mirror.mkdir(parents=True)
    lines = ['the cat sees the dog', 'a dog sees the bird',
             'the bird sees a cat']
    for split, count in (('train', 40), ('valid', 5), ('test', 5)):
        (mirror / f'ptb.{split}.txt').write_text(
            ''.join(f' {lines[i % 3]} \n' for i in range(count)))
    monkeypatch.setenv('KUSARI_DATASET_MIRROR', mirror.parent.as_uri())
    monkeypatch.setenv('KUSARI_DATASET_VERIFY', '0')   # a made-up corpus
    stdout = run_example(EXAMPLES / f'{name}.py', tmp_path,
                         '--dataset-root', str(tmp_path / 'root'),
                         '--epoch', '1', '--unit', '8', '--batchsize', '5')
    # the, cat, sees, dog, a, bird and <eos>; 40 lines of 5 words + <eos>
    assert 'vocabulary: 7 words, training: 240 words' in stdout
    assert (tmp_path / 'root' / 'pfnet' / 'chainer' / 'ptb').is_dir()
