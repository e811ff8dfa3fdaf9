"""Kusari's serializers and datasets against the real Chainer 7.8.1: the
same scenarios (``data_cases``) run here and in the oracle's interpreter
(``oracle_data.py``). The files each side saves must hold the same keys
and values and load the same on both sides; the datasets must return the
same examples, dtypes, lengths and errors.
"""
import sys
from pathlib import Path

import chainer  # Kusari's drop-in
import numpy
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import data_cases as cases  # NOQA: E402 (on the path set above)

TOLERANCES = {numpy.dtype(numpy.float32): {'rtol': 1e-5, 'atol': 1e-6},
              numpy.dtype(numpy.float64): {'rtol': 1e-10, 'atol': 1e-12}}
GROUPS = ('saved/npz/', 'compressed/', 'loaded/npz/', 'dict/',
          'datasets/split', 'datasets/cross', 'datasets/text/',
          'datasets/pickle', 'datasets/image', 'datasets/labeled',
          'datasets/zipped', 'datasets/multi_zipped', 'datasets/tabular/',
          'datasets/error/', 'errors/', 'saved/hdf5/', 'loaded/hdf5/')
CONTAINERS = ('tuple', 'tuple_one', 'dict', 'sub', 'sub_plain', 'concat',
              'transform')


def _files(results):
    prefix = 'files/'
    return {k[len(prefix):]: numpy.asarray(v) for k, v in results.items()
            if k.startswith(prefix)}


@pytest.fixture(scope='module')
def kusari(tmp_path_factory):
    return cases.evaluate(chainer, cases.shared_inputs(),
                          str(tmp_path_factory.mktemp('kusari_data')))


@pytest.fixture(scope='module')
def oracle(run_oracle, kusari):
    given = {f'given/{k}': v for k, v in _files(kusari).items()}
    return run_oracle('oracle_data.py', {**cases.shared_inputs(), **given})


def _compared(keys, prefix):
    return {k for k in keys if k.startswith(prefix) and not k.startswith(
        tuple(cases.KNOWN_DIFFERENCES))}


def _assert_same(key, ours, theirs):
    ours = numpy.asarray(ours)
    assert ours.dtype == theirs.dtype, key
    assert ours.shape == theirs.shape, key
    if theirs.dtype.kind in 'fc':
        numpy.testing.assert_allclose(ours, theirs, err_msg=key,
                                      **TOLERANCES[theirs.dtype])
    else:
        numpy.testing.assert_array_equal(ours, theirs, err_msg=key)


def _assert_group(ours, theirs, prefix):
    mine = _compared(ours, prefix)
    chainers = _compared(theirs.files, prefix)
    if prefix.endswith('hdf5/') and not (mine or chainers):
        pytest.skip('h5py is missing on both sides')
    assert mine == chainers
    assert mine
    for key in sorted(chainers):
        _assert_same(key, ours[key], theirs[key])


@pytest.mark.parametrize('prefix', GROUPS + tuple(
    f'datasets/{name}/' for name in CONTAINERS))
def test_same_results(prefix, kusari, oracle):
    _assert_group(kusari, oracle, prefix)


@pytest.mark.parametrize('fmt', ['npz', 'hdf5'])
def test_kusari_reads_chainers_files(fmt, oracle, tmp_path):
    files = {k: v for k, v in _files(
        {k: oracle[k] for k in oracle.files}).items()
        if k.startswith(fmt)}
    if not files:
        pytest.skip(f'Chainer saved no {fmt} file (h5py missing)')
    loaded = cases.load_files(chainer, files, str(tmp_path))
    _assert_group(loaded, oracle, f'loaded/{fmt}/')


@pytest.mark.parametrize('fmt', ['npz', 'hdf5'])
def test_chainer_reads_kusaris_files(fmt, oracle):
    prefix = 'cross/'
    crossed = {k[len(prefix):]: oracle[k] for k in oracle.files
               if k.startswith(prefix)}
    _assert_group(crossed, oracle, f'loaded/{fmt}/')


def test_known_differences_still_differ(kusari, oracle):
    # A difference that goes away must rejoin the compared set.
    for prefix in cases.KNOWN_DIFFERENCES:
        mine = {k for k in kusari if k.startswith(prefix)}
        chainers = {k for k in oracle.files if k.startswith(prefix)}
        assert mine or chainers, prefix
        assert mine != chainers or any(
            numpy.asarray(kusari[k]).shape != oracle[k].shape
            or not numpy.array_equal(kusari[k], oracle[k])
            for k in mine), prefix
