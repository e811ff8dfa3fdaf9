"""Run the core API cases with the real Chainer (run by ``test_core.py``
in the oracle's interpreter: ``python oracle_core.py inputs.npz
outputs.npz``). It writes the arrays of ``core_cases.evaluate`` and
prints Chainer's version last.
"""
import sys
from pathlib import Path

import chainer
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import core_cases as cases  # NOQA: E402 (on the path set above)


def main(inputs_path, outputs_path):
    with numpy.load(inputs_path) as shared:
        inputs = {key: shared[key] for key in shared.files}
    numpy.savez(outputs_path, **cases.evaluate(chainer, inputs))
    print(chainer.__version__)


if __name__ == '__main__':
    main(*sys.argv[1:])
