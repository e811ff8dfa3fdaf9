"""Run the serializer and dataset scenarios with the real Chainer (run by
``test_data.py`` in the oracle's interpreter: ``python oracle_data.py
inputs.npz outputs.npz``).

It writes the arrays of ``data_cases.evaluate`` and, under ``cross/``,
what Chainer loads from the files given as ``given/<format>/<name>``
(Kusari's). It prints Chainer's version last.
"""
import sys
import tempfile
from pathlib import Path

import chainer
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import data_cases as cases  # NOQA: E402 (on the path set above)


def main(inputs_path, outputs_path):
    with numpy.load(inputs_path) as shared:
        inputs = {key: shared[key] for key in shared.files}
    prefix = 'given/'
    given = {key[len(prefix):]: value for key, value in inputs.items()
             if key.startswith(prefix)}
    with tempfile.TemporaryDirectory() as workdir:
        results = cases.evaluate(chainer, inputs, workdir)
        with tempfile.TemporaryDirectory() as crossdir:
            loaded = cases.load_files(chainer, given, crossdir)
    results.update({f'cross/{k}': v for k, v in loaded.items()})
    numpy.savez(outputs_path, **results)
    print(chainer.__version__)


if __name__ == '__main__':
    main(*sys.argv[1:])
