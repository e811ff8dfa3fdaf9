"""Every function of ``chainer.functions`` called wrongly: one input given
a wrong dtype (bool, int, uint, complex, str, object), a wrong number of
dimensions, None, a list or a Python scalar (see ``bad_call_cases``).

Each wrong call either runs, or raises a TypeError or ValueError (an
InvalidType is a TypeError; an IndexError for an index that does not fit
the array, as NumPy and Chainer raise) that names the function, in its
message or a note, and is not NumPy's own error escaping from inside
NumPy (but for ``UNCHECKED``). Where ``KUSARI_ORACLE_PYTHON`` names a
Python with Chainer 7.8.1, a bool or integer input Chainer accepts must
run here too (but for ``bad_call_cases.KNOWN_DIFFERENCES``). Variable's
operators on a Variable of a wrong dtype run or raise Kusari's own errors.
"""
import os
import sys
import traceback
import types
import warnings
from pathlib import Path

import numpy
import pytest

from kusari.autograd import Variable
from kusari.autograd import functions as F
from kusari.autograd.utils.sparse import to_coo
from kusari.autograd.utils.type_check import InvalidType
from kusari.autograd.utils.type_check import NotAnArrayError

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import bad_call_cases as cases  # NOQA: E402 (on the path set above)

KUSARI = types.SimpleNamespace(F=F, Variable=Variable, to_coo=to_coo)
BAD_CALLS = cases.bad_calls(KUSARI)
IDS = [cases.key(*bad_call) for bad_call in BAD_CALLS]
# Functions whose index arguments may not fit a wrong input: IndexError.
INDEXING = ('get_item', 'scatter_add')
# {(function, slot, kind): why its error may be unclear}
UNCHECKED = {}


def _normalized(text):
    return ''.join(c for c in text.lower() if c.isalnum())


def _unclear(function, error):
    """Why ``error`` is not a clear refusal of a call of ``function``;
    None if it is one."""
    allowed = (TypeError, ValueError) + (
        (IndexError,) if function in INDEXING else ())
    if not isinstance(error, allowed):
        return f'a {type(error).__name__}, not a TypeError or ValueError'
    if type(error).__module__.partition('.')[0] in ('numpy', 'cupy'):
        return 'the array library\'s own error'
    frames = traceback.extract_tb(error.__traceback__)
    if frames and f'{os.sep}numpy{os.sep}' in frames[-1].filename:
        return 'raised inside NumPy'
    text = _normalized(' '.join([str(error),
                                 *getattr(error, '__notes__', ())]))
    # (an alias, F.mean, is named by the function it is: average)
    names = {function, getattr(F, function).__name__}
    if not any(_normalized(name) in text for name in names):
        return 'the function is not named'
    return None


def test_unchecked_calls_are_still_unclear():
    # An entry of UNCHECKED that became clear must leave the list.
    for call, slot, kind in BAD_CALLS:
        key = (call.function, cases.slot_name(slot), kind)
        if key in UNCHECKED:
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                error = cases.run(KUSARI, call, slot, kind)
            assert error is not None and _unclear(call.function, error), key


def test_every_function_has_wrong_calls():
    called = {call.function for call, _, _ in BAD_CALLS}
    public = {name for name, value in vars(F).items()
              if not name.startswith('_') and callable(value)
              and not isinstance(value, type)}
    assert public - called == set()


@pytest.mark.parametrize('call, slot, kind', BAD_CALLS, ids=IDS)
def test_wrong_call_runs_or_is_refused_clearly(call, slot, kind):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        error = cases.run(KUSARI, call, slot, kind)
    unchecked = (call.function, cases.slot_name(slot), kind) in UNCHECKED
    if error is not None and not unchecked:
        problem = _unclear(call.function, error)
        assert problem is None, (
            f'F.{call.function} (as in the differential case {call.case}) '
            f'with input {cases.slot_name(slot)} {kind}: {problem}: '
            f'{type(error).__name__}: {error}')


@pytest.fixture(scope='module')
def chainer_outcomes(run_oracle):
    """``{key: 'ok' or 'Type: message'}``: the wrong calls under Chainer."""
    results = run_oracle('oracle_bad_calls.py', {})
    return {key: str(results[key]) for key in results.files}


@pytest.mark.parametrize('call, slot, kind', [
    bad_call for bad_call in BAD_CALLS
    if bad_call[2] in cases.COMPARED_KINDS],
    ids=[key for key, bad_call in zip(IDS, BAD_CALLS)
         if bad_call[2] in cases.COMPARED_KINDS])
def test_a_dtype_chainer_accepts_is_accepted(chainer_outcomes, call, slot,
                                             kind):
    if chainer_outcomes[cases.key(call, slot, kind)] != 'ok':
        return
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        error = cases.run(KUSARI, call, slot, kind)
    known = cases.KNOWN_DIFFERENCES.get(
        (call.function, cases.slot_name(slot), kind))
    if known:
        assert error is not None, f'no longer differs: {known}'
    else:
        assert error is None, (
            f'Chainer accepts F.{call.function} with input '
            f'{cases.slot_name(slot)} {kind}; Kusari raises '
            f'{type(error).__name__}: {error}')


# Variable's operators, on a Variable of a wrong dtype (with a float
# Variable or a Python scalar on the other side).
OPERATORS = {
    '-x': lambda x, y: -x, 'abs(x)': lambda x, y: abs(x),
    'x + 1': lambda x, y: x + 1, '1 - x': lambda x, y: 1 - x,
    'x * 2': lambda x, y: x * 2, '2 / x': lambda x, y: 2 / x,
    'x ** 2': lambda x, y: x ** 2, '2 ** x': lambda x, y: 2 ** x,
    'x + y': lambda x, y: x + y, 'y * x': lambda x, y: y * x,
    'x @ y': lambda x, y: x @ y, 'x[0]': lambda x, y: x[0],
}


@pytest.mark.parametrize('kind', cases.ARRAY_KINDS[:6])
@pytest.mark.parametrize('expression', sorted(OPERATORS))
def test_operators_on_a_wrong_dtype_run_or_are_refused_clearly(
        expression, kind):
    good = numpy.arange(1, 5, dtype=numpy.float64).reshape(2, 2)
    x = Variable(cases.WRONG_VALUES[kind](good))
    y = Variable(good)
    try:
        with warnings.catch_warnings(), numpy.errstate(all='ignore'):
            warnings.simplefilter('ignore')
            OPERATORS[expression](x, y)
    except (InvalidType, NotAnArrayError):
        pass  # Kusari's own: they name the node (its label, as ``_ + 1``)
    except Exception as error:  # what the test reports
        pytest.fail(f'{expression} with x {kind}: {type(error).__name__}: '
                    f'{error}')
