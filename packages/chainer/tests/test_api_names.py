"""Every public name of Chainer v7's API reference exists under its Chainer
path, or has a written reason here for why not (yet)."""
import csv
import importlib
from pathlib import Path

import pytest

NAMES = Path(__file__).resolve().parents[3].parent / 'shared' / \
    'reference' / 'chainer_api_names.tsv'

# Single names deliberately absent, with the reason.
ABSENT = {
    'chainer.links.TheanoFunction': 'Theano is discontinued',
    'chainer.iterators.DaliIterator':
        'NVIDIA DALI pipelines are out of scope for a NumPy/CuPy framework',
}


def _rows():
    with NAMES.open() as file:
        for section, subsection, name in csv.reader(file, delimiter='\t'):
            if section != 'section':
                yield section, name


def _resolve(name):
    parts = name.split('.')
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module('.'.join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(name)


@pytest.mark.skipif(not NAMES.exists(),
                    reason='shared/reference is not beside the repository')
def test_every_name_exists_or_has_a_reason():
    missing = []
    for _, name in _rows():
        if name in ABSENT:
            continue
        try:
            _resolve(name)
        except (ImportError, AttributeError):
            missing.append(name)
    assert not missing, f'missing without a reason: {missing}'


@pytest.mark.skipif(not NAMES.exists(),
                    reason='shared/reference is not beside the repository')
def test_reasons_are_not_stale():
    """A name given a reason must really be absent."""
    present = []
    for name in ABSENT:
        try:
            _resolve(name)
        except (ImportError, AttributeError):
            continue
        present.append(name)
    assert not present
