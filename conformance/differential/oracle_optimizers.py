"""Run the optimizer cases with the real Chainer (run by
``test_optimizers.py`` in the oracle's interpreter:
``python oracle_optimizers.py inputs.npz outputs.npz``).

It writes the ``case/key`` arrays of ``optimizer_cases.evaluate`` for
every case (the known differences too), and
``case/resumed/key``, the case resumed by Chainer from its own snapshot
after ``MID`` steps; it prints Chainer's version last.
"""
import sys
from pathlib import Path

import chainer
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import optimizer_cases as cases  # NOQA: E402 (on the path set above)


def main(inputs_path, outputs_path):
    with numpy.load(inputs_path) as shared:
        inputs = {key: shared[key] for key in shared.files}
    results = cases.evaluate(chainer, inputs, sorted(cases.CASES))
    for case in cases.CASES:
        prefix = f'{case}/'
        own = {key[len(prefix):]: value for key, value in results.items()
               if key.startswith(prefix)}
        if 'error' not in own:
            resumed = cases.run(chainer, inputs, case, resume=own)
            results.update({f'{prefix}resumed/{key}': value
                            for key, value in resumed.items()})
    numpy.savez(outputs_path, **results)
    print(chainer.__version__)


if __name__ == '__main__':
    main(*sys.argv[1:])
