"""Every public function has a record, or a written reason for lacking one.
"""
import csv
import inspect
import warnings
from pathlib import Path

import pytest

# Importing the records package registers every record.
import records  # noqa: F401
from harness.record import NO_SPEC
from harness.record import RECORDS
from kusari.autograd import functions as F

# The repository's parent holds shared/, here and in CI.
API_NAMES = (Path(__file__).resolve().parents[2] / 'shared' / 'reference'
             / 'chainer_api_names.tsv')
PREFIX = 'chainer.functions.'


def _covered():
    return {record.function for record in RECORDS.values()} | set(NO_SPEC)


def _public_functions():
    return sorted(name for name, value in vars(F).items()
                  if not name.startswith('_') and inspect.isfunction(value))


def _chainer_function_names():
    if not API_NAMES.exists():
        pytest.skip(f'the list of Chainer API names is not at {API_NAMES}')
    with API_NAMES.open(newline='') as file:
        rows = list(csv.DictReader(file, delimiter='\t'))
    return sorted(row['name'][len(PREFIX):] for row in rows
                  if row['section'] == 'functions'
                  and row['name'].startswith(PREFIX))


def test_chainer_functions_present_are_covered():
    names = _chainer_function_names()
    pending = [name for name in names if not hasattr(F, name)]
    if pending:
        warnings.warn(
            f'{len(pending)} of {len(names)} chainer.functions names are '
            f'pending (not in kusari.autograd.functions yet): '
            f'{", ".join(pending)}', stacklevel=1)
    missing = [name for name in names
               if hasattr(F, name) and name not in _covered()]
    assert not missing, (
        f'chainer.functions names implemented in kusari.autograd.functions '
        f'with neither a conformance record nor a NO_SPEC reason: '
        f'{", ".join(missing)}')


def test_public_functions_are_covered():
    missing = [name for name in _public_functions()
               if name not in _covered()]
    assert not missing, (
        f'public functions of kusari.autograd.functions with neither a '
        f'conformance record nor a NO_SPEC reason: {", ".join(missing)}')


def test_no_spec_reasons_name_existing_functions():
    stale = [name for name in NO_SPEC if not hasattr(F, name)]
    assert not stale, (
        f'NO_SPEC gives reasons for names kusari.autograd.functions does not '
        f'have: {", ".join(stale)}')


def test_no_spec_names_have_no_record():
    recorded = {record.function for record in RECORDS.values()}
    both = sorted(recorded & set(NO_SPEC))
    assert not both, (f'functions with a record and a NO_SPEC reason: '
                      f'{", ".join(both)}')
