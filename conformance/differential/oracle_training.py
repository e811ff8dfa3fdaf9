"""Run the training scenarios with the real Chainer (run by
``test_training.py`` in the oracle's interpreter:
``python oracle_training.py inputs.npz outputs.npz``).

It writes the arrays of ``training_cases.evaluate`` and ``resumed/...``,
Chainer's own run resumed from its snapshot. Where the inputs hold a
snapshot (``resume/<key>`` arrays, with ``resume_rng/...``), it writes only
``resumed/...``: that snapshot resumed by Chainer. It prints Chainer's
version last.
"""
import os
import sys
import tempfile
from pathlib import Path

import chainer
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import training_cases as cases  # NOQA: E402 (on the path set above)


def _subset(arrays, prefix):
    return {key[len(prefix):]: value for key, value in arrays.items()
            if key.startswith(prefix)}


def main(inputs_path, outputs_path):
    with numpy.load(inputs_path) as shared:
        inputs = {key: shared[key] for key in shared.files}
    snapshot = _subset(inputs, 'resume/')
    with tempfile.TemporaryDirectory() as workdir:
        if snapshot:
            results = {}
            path = os.path.join(workdir, 'given_snapshot.npz')
            numpy.savez(path, **snapshot)
            rng = _subset(inputs, 'resume_rng/')
        else:
            results = cases.evaluate(chainer, inputs, workdir)
            path = os.path.join(workdir, 'snapshot',
                                f'snapshot_iter_{cases.SNAPSHOT_AT}')
            rng = _subset(results, 'snapshot/rng/')
        resumed = cases.resume_run(chainer, inputs, os.path.join(
            workdir, 'resumed'), path, rng)
    results.update({f'resumed/{k}': v for k, v in resumed.items()})
    numpy.savez(outputs_path, **results)
    print(chainer.__version__)


if __name__ == '__main__':
    main(*sys.argv[1:])
