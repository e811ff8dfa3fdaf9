"""Run the link cases with the real Chainer (run by ``test_links.py`` in
the oracle's interpreter: ``python oracle_links.py inputs.npz
outputs.npz``).

The input file holds, per case, ``case/in/name`` (inputs),
``case/state/key`` (Kusari's saved state, loaded before the step) and
``case/gy/i`` (output gradients). It prints Chainer's version, and
writes ``case/key`` arrays (see ``link_cases.evaluate``), and as
``case/own/key`` the entries of Chainer's own initial state that do not
depend on the random seed (biases, BatchNormalization's statistics,
constant initializers...); a case that raises writes ``case/error``, the
message, instead. ``init:name/path`` are the moments of the random
initial parameters of ``link_cases.INIT_CASES``.
"""
import sys
from pathlib import Path

import chainer
import chainer.links
import chainer.functions
import chainer.serializers
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import link_cases as cases  # NOQA: E402 (on the path set above)


def deterministic_state(case, arrays):
    """The entries of the case's initial state that two random seeds
    give alike."""
    states = []
    for seed in (1, 2):
        numpy.random.seed(seed)
        link, _ = cases.build(chainer, case, arrays)
        states.append(cases.state_of(chainer, link))
    first, second = states
    return {key: value for key, value in first.items()
            if numpy.array_equal(value, second[key])}


def main(inputs_path, outputs_path):
    shared = numpy.load(inputs_path)
    results = {}
    for case in sorted({key.split('/')[0] for key in shared.files}):
        arrays = cases.unpack(shared, case, 'in')
        state = cases.unpack(shared, case, 'state')
        gys = cases.unpack(shared, case, 'gy')
        try:
            values = cases.evaluate(
                chainer, case, arrays, state,
                lambda _: [gys[str(i)] for i in range(len(gys))])
            values.update({f'own/{key}': value for key, value in
                           deterministic_state(case, arrays).items()})
        except Exception as error:  # reported by the test, case by case
            values = {'error': numpy.array(f'{type(error).__name__}: '
                                           f'{error}')}
        for key, value in values.items():
            results[f'{case}/{key}'] = value
    numpy.random.seed(0)
    for name in cases.INIT_CASES:
        for path, moments in cases.init_moments(chainer, name).items():
            results[f'init:{name}{path}'] = moments
    numpy.savez(outputs_path, **results)
    print(chainer.__version__)


if __name__ == '__main__':
    main(*sys.argv[1:])
