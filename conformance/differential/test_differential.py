"""Kusari against the real Chainer 7.8.1, on fixed inputs.

Runs only where ``KUSARI_ORACLE_PYTHON`` names an interpreter with
Chainer 7.8.1 installed: the cases of ``differential_cases.CASES`` are computed
there (by ``oracle.py``, in a subprocess) and here, and forward values,
gradients and second-order gradients must agree.
"""
import sys
import types
from pathlib import Path

import numpy
import pytest

from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd import grad

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import differential_cases as cases  # NOQA: E402 (on the path set above)

KUSARI = types.SimpleNamespace(F=F, Variable=Variable, grad=grad)
TOLERANCE = {'float32': {'atol': 1e-6, 'rtol': 1e-5},
             'float64': {'atol': 1e-12, 'rtol': 1e-10}}


def _shared_inputs(seed=0):
    """Inputs and gradients of every case, drawn once and saved for both
    sides."""
    rng = numpy.random.RandomState(seed)
    entries = {}
    for case, (expression, specs, dtype) in cases.CASES.items():
        arrays = {name: rng.uniform(low, high, shape).astype(dtype)
                  for name, (shape, low, high) in specs.items()}
        outputs = cases.outputs_of(
            KUSARI, expression,
            {name: Variable(a) for name, a in arrays.items()})
        grad_outputs = [rng.uniform(-1, 1, y.shape).astype(y.dtype)
                        for y in outputs]
        grad_grads = {name: rng.uniform(-1, 1, a.shape).astype(a.dtype)
                      for name, a in arrays.items()}
        entries.update(cases.pack(case, arrays, grad_outputs,
                                     grad_grads))
    return entries


@pytest.fixture(scope='module')
def oracle(run_oracle):
    """``(inputs, results)``: the shared inputs and Chainer's results."""
    inputs = _shared_inputs()
    return inputs, run_oracle('oracle.py', inputs)


@pytest.mark.parametrize('case', sorted(cases.CASES))
def test_matches_chainer(case, oracle):
    shared, expected = oracle
    expression, _, dtype = cases.CASES[case]
    arrays, grad_outputs, grad_grads = cases.unpack(shared, case)
    ours = cases.evaluate(KUSARI, expression, arrays, grad_outputs,
                             grad_grads)
    theirs = {key[len(case) + 1:]: expected[key] for key in expected.files
              if key.startswith(f'{case}/')}
    assert sorted(ours) == sorted(theirs)
    for key, value in ours.items():
        numpy.testing.assert_allclose(
            value, theirs[key], strict=True,
            err_msg=f'{case}: {key} differs from Chainer',
            **TOLERANCE[dtype])
