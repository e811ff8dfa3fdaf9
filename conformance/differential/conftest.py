"""The oracle fixture of the differential suite: scripts of this folder
run under the real Chainer 7.8.1 in its own interpreter.

Every oracle script takes ``inputs.npz outputs.npz`` as its arguments,
reads the first, writes the second, and prints Chainer's version as its
last line.
"""
import os
import subprocess
from pathlib import Path

import numpy
import pytest

HERE = Path(__file__).resolve().parent
ORACLE_VERSION = '7.8.1'


@pytest.fixture(scope='session')
def run_oracle(tmp_path_factory):
    """``run_oracle(script, inputs)``: the arrays the oracle script
    ``script`` (a file name in this folder) writes for the arrays
    ``inputs`` (a dict), as a loaded .npz file.

    Skips where ``KUSARI_ORACLE_PYTHON`` does not name an interpreter.
    """
    python = os.environ.get('KUSARI_ORACLE_PYTHON')
    if not python:
        pytest.skip('KUSARI_ORACLE_PYTHON (a Python with Chainer '
                    f'{ORACLE_VERSION}) is not set')

    def run(script, inputs):
        directory = tmp_path_factory.mktemp(Path(script).stem)
        inputs_path = directory / 'inputs.npz'
        outputs_path = directory / 'outputs.npz'
        numpy.savez(inputs_path, **inputs)
        done = subprocess.run(
            [python, str(HERE / script), str(inputs_path),
             str(outputs_path)], capture_output=True, text=True,
            timeout=600)
        assert done.returncode == 0, (
            f'the oracle {script} failed:\n{done.stderr}')
        version = done.stdout.strip().splitlines()[-1]
        assert version == ORACLE_VERSION, (
            f'{python} runs Chainer {version}; the oracle must be '
            f'{ORACLE_VERSION}')
        return numpy.load(outputs_path)

    return run
