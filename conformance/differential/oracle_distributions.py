"""Run the distribution cases with the real Chainer (run by
``test_distributions.py`` in the oracle's interpreter: ``python
oracle_distributions.py inputs.npz outputs.npz``).

It prints Chainer's version, and writes ``case/key`` arrays (see
``distribution_cases.evaluate``) to the output file.
"""
import sys
import warnings
from pathlib import Path

import chainer
import chainer.distributions
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import distribution_cases as cases  # NOQA: E402 (on the path set above)


def main(inputs_path, outputs_path):
    shared = numpy.load(inputs_path)
    warnings.simplefilter('ignore')  # Chainer's, on NaN and inf values
    names = sorted({key.split('/')[0] for key in shared.files})
    numpy.savez(outputs_path, **{
        f'{case}/{key}': value for case in names
        for key, value in cases.evaluate(
            chainer, case, cases.unpack(shared, case)).items()})
    print(chainer.__version__)


if __name__ == '__main__':
    main(*sys.argv[1:])
