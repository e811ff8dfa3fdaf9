"""Write what Chainer's training tools write (run by ``test_reports.py``
in the oracle's interpreter: ``python oracle_reports.py inputs.npz
outputs.npz``): the texts of ``report_cases.evaluate``, as str arrays. It
prints Chainer's version last.
"""
import sys
import tempfile
from pathlib import Path

import chainer
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import report_cases as cases  # NOQA: E402 (on the path set above)


def main(inputs_path, outputs_path):
    with numpy.load(inputs_path) as shared:
        inputs = {key: shared[key] for key in shared.files}
    with tempfile.TemporaryDirectory() as workdir:
        results = cases.evaluate(chainer, inputs, workdir)
    numpy.savez(outputs_path, **{name: numpy.array(text)
                                 for name, text in results.items()})
    print(chainer.__version__)


if __name__ == '__main__':
    main(*sys.argv[1:])
