"""Kusari's distributions against the real Chainer 7.8.1, on fixed
inputs.

Runs only where ``KUSARI_ORACLE_PYTHON`` names an interpreter with
Chainer 7.8.1 installed: every case of ``distribution_cases.CASES`` is
evaluated there (by ``oracle_distributions.py``) and here. Every result
Chainer gives must be given alike by Kusari (values, gradients, shapes,
dtypes, and the type of the error where Chainer raises one), except those
of ``distribution_cases.KNOWN_DIFFERENCES``, which must still differ.
Where Chainer raises NotImplementedError, Kusari may compute more.
"""
import sys
import warnings
import zlib
from pathlib import Path

import chainer
import numpy
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import distribution_cases as cases  # NOQA: E402 (on the path set above)

TOLERANCE = {'float32': {'atol': 1e-6, 'rtol': 1e-5},
             'float64': {'atol': 1e-12, 'rtol': 1e-10}}


def _inputs():
    """The inputs of every case, drawn from a generator seeded by the
    case's name."""
    entries = {}
    for case, (_, specs, dtype) in cases.CASES.items():
        rng = numpy.random.RandomState(zlib.crc32(case.encode()))
        entries.update(cases.pack(case, cases.draw(rng, specs, dtype)))
    return entries


@pytest.fixture(scope='module')
def oracle(run_oracle):
    """``(inputs, results)``: the shared inputs and Chainer's results."""
    inputs = _inputs()
    return inputs, run_oracle('oracle_distributions.py', inputs)


def _both(case, oracle):
    shared, expected = oracle
    theirs = {key[len(case) + 1:]: expected[key] for key in expected.files
              if key.startswith(f'{case}/')}
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        ours = cases.evaluate(chainer, case, cases.unpack(shared, case))
    return ours, theirs


def _query_of(key):
    return key.split('/')[0] if not key.startswith('params/') else 'params'


def _differences(case, ours, theirs):
    """``{query: what differs}`` between Kusari's and Chainer's results
    of ``case``."""
    tolerance = TOLERANCE[cases.CASES[case][2]]
    found = {}
    for key, value in theirs.items():
        query = key.rsplit('/', 1)[0] if key.endswith('error') else \
            _query_of(key)
        if key.endswith('error'):
            if str(value).startswith('NotImplementedError'):
                continue
            mine = ours.get(key)
            expected = str(value).split(',')[0]
            if mine is None or expected not in str(mine).split(':')[0]:
                found[query] = f'Chainer raised {value}, Kusari gave ' \
                    f'{mine if mine is not None else "a result"}'
            continue
        if f'{query}/error' in ours:
            found[query] = f'Kusari raised {ours[f"{query}/error"]}'
            continue
        if key not in ours:
            found.setdefault(query, f'Kusari has no {key}')
            continue
        mine = ours[key]
        if value.dtype.kind in 'fc':
            same = (mine.shape == value.shape and mine.dtype == value.dtype
                    and numpy.allclose(mine, value, equal_nan=True,
                                       **tolerance))
        else:
            same = numpy.array_equal(mine, value)
        if not same:
            found.setdefault(
                query, f'{key}: {_summary(mine, value, tolerance)}')
    return found


def _summary(mine, value, tolerance):
    """What differs between Kusari's array ``mine`` and Chainer's
    ``value``, in one line."""
    if mine.shape != value.shape or mine.dtype != value.dtype:
        return (f'Kusari {mine.shape} {mine.dtype}, Chainer {value.shape} '
                f'{value.dtype}')
    if value.dtype.kind not in 'fc':
        return f'Kusari {mine.tolist()}, Chainer {value.tolist()}'
    wrong = ~numpy.isclose(mine, value, equal_nan=True, **tolerance)
    return (f'{int(wrong.sum())} of {value.size} differ, first Kusari '
            f'{mine[wrong][0]!r}, Chainer {value[wrong][0]!r}')


def _compared(case):
    return [q for q in cases.KNOWN_DIFFERENCES if q.split('/')[0] == case]


def test_known_differences_are_cases():
    assert {key.split('/')[0] for key in cases.KNOWN_DIFFERENCES} <= set(
        cases.CASES)


def test_every_distribution_has_a_case():
    built = ' '.join(expression for expression, _, _ in
                     cases.CASES.values())
    names = {name for name, value in vars(chainer.distributions).items()
             if isinstance(value, type) and name != 'Distribution'}
    assert {name for name in names if f'D.{name}(' not in built} == set()


@pytest.mark.parametrize('case', sorted(cases.CASES))
def test_matches_chainer(case, oracle):
    ours, theirs = _both(case, oracle)
    if case.startswith('error_') and f'{case}/build' not in \
            cases.KNOWN_DIFFERENCES:
        assert 'build/error' in theirs, f'Chainer accepted {case}'
    else:
        # a value to compare, or an error of the construction
        assert 'build/error' in theirs or any(
            not key.endswith('error') for key in theirs)
    found = _differences(case, ours, theirs)
    known = {f'{case}/{q}' for q in found} & set(cases.KNOWN_DIFFERENCES)
    found = {q: d for q, d in found.items()
             if f'{case}/{q}' not in known}
    assert not found, '\n'.join(f'{case}/{q}: {d}' for q, d in found.items())


@pytest.mark.parametrize('known', sorted(cases.KNOWN_DIFFERENCES))
def test_known_difference_remains(known, oracle):
    """A known difference that has gone must leave ``KNOWN_DIFFERENCES``
    (and join the compared results)."""
    case, query = known.split('/', 1)
    ours, theirs = _both(case, oracle)
    assert query in _differences(case, ours, theirs)
