"""Make the wrong calls of ``bad_call_cases`` with the real Chainer (run
by the test in the oracle's interpreter: ``python oracle_bad_calls.py
inputs.npz outputs.npz``; the inputs are not used).

Writes, for each wrong call, ``ok`` or the type and message of what it
raised.
"""
import sys
import types
import warnings
from pathlib import Path

import chainer
import chainer.functions
import chainer.utils
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bad_call_cases as cases  # NOQA: E402 (on the path set above)

# Chainer 7.8.1's resize_images still uses ``numpy.float``.
numpy.float = float

CHAINER = types.SimpleNamespace(
    F=chainer.functions, Variable=chainer.Variable,
    to_coo=chainer.utils.to_coo)


def main(inputs_path, outputs_path):
    warnings.simplefilter('ignore')
    results = {}
    for call, slot, kind in cases.bad_calls(CHAINER):
        error = cases.run(CHAINER, call, slot, kind)
        results[cases.key(call, slot, kind)] = numpy.array(
            'ok' if error is None else f'{type(error).__name__}: {error}')
    numpy.savez(outputs_path, **results)
    print(chainer.__version__)


if __name__ == '__main__':
    main(*sys.argv[1:])
