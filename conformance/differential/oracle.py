"""Run the differential cases with the real Chainer (run by the test in
the oracle's interpreter: ``python oracle.py inputs.npz outputs.npz``).

It prints Chainer's version, and writes ``case/key`` arrays (see
``differential_cases.evaluate``) to the output file; a case that raises
writes ``case/error``, the message, instead.
"""
import sys
import types
from pathlib import Path

import chainer
import chainer.functions
import chainer.utils
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import differential_cases as cases  # NOQA: E402 (on the path set above)

# Chainer 7.8.1's resize_images still uses ``numpy.float``, which the
# oracle's NumPy (1.24 and later) has dropped: give it back the builtin.
numpy.float = float

CHAINER = types.SimpleNamespace(
    F=chainer.functions, Variable=chainer.Variable, grad=chainer.grad,
    to_coo=chainer.utils.to_coo, using_config=chainer.using_config)


def main(inputs_path, outputs_path):
    shared = numpy.load(inputs_path)
    results = {}
    for case in sorted({key.split('/')[0] for key in shared.files}):
        arrays, grad_outputs, grad_grads = cases.unpack(shared, case)
        try:
            values = cases.evaluate(CHAINER, case, arrays, grad_outputs,
                                    grad_grads)
        except Exception as error:  # reported by the test, case by case
            values = {'error': numpy.array(f'{type(error).__name__}: '
                                           f'{error}')}
        for key, value in values.items():
            results[f'{case}/{key}'] = value
    numpy.savez(outputs_path, **results)
    print(chainer.__version__)


if __name__ == '__main__':
    main(*sys.argv[1:])
