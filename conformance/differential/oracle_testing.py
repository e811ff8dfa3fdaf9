"""Run the ``chainer.testing`` and ``chainer.utils`` cases with the real
Chainer (run by ``test_testing.py`` in the oracle's interpreter:
``python oracle_testing.py inputs.npz outputs.npz``).

It writes the arrays of ``testing_cases.run_user_tests`` (the user-style
test modules, run by pytest in this interpreter) and of
``testing_cases.evaluate``, and prints Chainer's version last.
"""
import sys
import tempfile
from pathlib import Path

import chainer
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import testing_cases as cases  # NOQA: E402 (on the path set above)


def main(inputs_path, outputs_path):
    with tempfile.TemporaryDirectory() as workdir:
        results = cases.run_user_tests(sys.executable, workdir)
    results.update(cases.evaluate(chainer))
    numpy.savez(outputs_path, **results)
    print(chainer.__version__)


if __name__ == '__main__':
    main(*sys.argv[1:])
