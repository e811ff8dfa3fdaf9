"""Run the differential cases with the real Chainer (run by the test in
the oracle's interpreter: ``python oracle.py inputs.npz outputs.npz``).

It prints Chainer's version, and writes ``case/key`` arrays (see
``differential_cases.evaluate``) to the output file.
"""
import sys
import types
from pathlib import Path

import chainer
import chainer.functions
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import differential_cases as cases  # NOQA: E402 (on the path set above)

CHAINER = types.SimpleNamespace(
    F=chainer.functions, Variable=chainer.Variable, grad=chainer.grad)


def main(inputs_path, outputs_path):
    shared = numpy.load(inputs_path)
    results = {}
    for case, (expression, _, _) in cases.CASES.items():
        arrays, grad_outputs, grad_grads = cases.unpack(shared, case)
        for key, value in cases.evaluate(
                CHAINER, expression, arrays, grad_outputs,
                grad_grads).items():
            results[f'{case}/{key}'] = value
    numpy.savez(outputs_path, **results)
    print(chainer.__version__)


if __name__ == '__main__':
    main(*sys.argv[1:])
