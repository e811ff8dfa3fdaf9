"""Kusari against the real Chainer 7.8.1, on fixed inputs.

Runs only where ``KUSARI_ORACLE_PYTHON`` names an interpreter with
Chainer 7.8.1 installed: the cases of ``differential_cases.CASES`` are
computed there (by ``oracle.py``, in a subprocess) and here, and forward
values, gradients and second-order gradients must agree, except for the
cases of ``differential_cases.KNOWN_DIFFERENCES``, which must still
differ.
"""
import sys
import types
import zlib
from pathlib import Path

import numpy
import pytest

from kusari.array.configuration import using_config
from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd import grad
from kusari.autograd.utils.sparse import to_coo

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import differential_cases as cases  # NOQA: E402 (on the path set above)

KUSARI = types.SimpleNamespace(F=F, Variable=Variable, grad=grad,
                               to_coo=to_coo, using_config=using_config)
TOLERANCE = {'float16': {'atol': 1e-3, 'rtol': 1e-2},
             'float32': {'atol': 1e-6, 'rtol': 1e-5},
             'float64': {'atol': 1e-12, 'rtol': 1e-10}}
COMPARED = sorted(set(cases.CASES) - set(cases.KNOWN_DIFFERENCES))


def _shared_inputs():
    """Inputs and gradients of every case, drawn once and saved for both
    sides (seeded by the case's name, so that adding a case changes no
    other's inputs)."""
    entries = {}
    for case in cases.CASES:
        rng = numpy.random.RandomState(zlib.crc32(case.encode()))
        _, specs, dtype, _ = cases.case_parts(case)
        arrays = cases.draw(rng, specs, dtype)
        grad_outputs = [rng.uniform(-1, 1, shape).astype(y_dtype)
                        for shape, y_dtype in cases.grad_output_shapes(
                            KUSARI, case, arrays)]
        grad_grads = {name: rng.uniform(-1, 1, arrays[name].shape).astype(
            dtype) for name in cases.differentiable(specs)}
        entries.update(cases.pack(case, arrays, grad_outputs, grad_grads))
    return entries


@pytest.fixture(scope='module')
def oracle(run_oracle):
    """``(inputs, results)``: the shared inputs and Chainer's results."""
    inputs = _shared_inputs()
    return inputs, run_oracle('oracle.py', inputs)


def test_known_differences_are_cases():
    assert set(cases.KNOWN_DIFFERENCES) <= set(cases.CASES)


def _both(case, oracle):
    """``(ours, theirs)``: the results of ``case`` by Kusari and Chainer."""
    shared, expected = oracle
    arrays, grad_outputs, grad_grads = cases.unpack(shared, case)
    theirs = {key[len(case) + 1:]: expected[key] for key in expected.files
              if key.startswith(f'{case}/')}
    assert 'error' not in theirs, f'Chainer raised {theirs["error"]}'
    ours = cases.evaluate(KUSARI, case, arrays, grad_outputs, grad_grads)
    assert sorted(ours) == sorted(theirs)
    return ours, theirs


@pytest.mark.parametrize('case', COMPARED)
def test_matches_chainer(case, oracle):
    ours, theirs = _both(case, oracle)
    for key, value in ours.items():
        numpy.testing.assert_allclose(
            value, theirs[key], strict=True,
            err_msg=f'{case}: {key} differs from Chainer',
            **TOLERANCE[cases.case_parts(case)[2]])


@pytest.mark.parametrize('case', sorted(cases.KNOWN_DIFFERENCES))
def test_known_difference_remains(case, oracle):
    """A known difference that has gone must leave ``KNOWN_DIFFERENCES``
    (and join the compared cases)."""
    ours, theirs = _both(case, oracle)
    tolerance = TOLERANCE[cases.case_parts(case)[2]]
    assert not all(
        value.shape == theirs[key].shape
        and numpy.allclose(value, theirs[key], **tolerance)
        for key, value in ours.items())
