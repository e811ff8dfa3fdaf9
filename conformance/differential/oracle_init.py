"""Run the initializer, link-hook, converter and device scenarios with the
real Chainer (run by ``test_init.py`` in the oracle's interpreter:
``python oracle_init.py inputs.npz outputs.npz``; the inputs are unused).

It writes the arrays of ``init_cases.evaluate`` and prints Chainer's
version last.
"""
import sys
from pathlib import Path

import chainer
import chainer.link_hooks  # NOQA: F401 (not imported by chainer)
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import init_cases as cases  # NOQA: E402 (on the path set above)


def main(inputs_path, outputs_path):
    del inputs_path  # every scenario builds its own inputs
    numpy.savez(outputs_path, **cases.evaluate(chainer))
    print(chainer.__version__)


if __name__ == '__main__':
    main(*sys.argv[1:])
