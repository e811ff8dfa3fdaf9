"""Kusari's ``chainer.testing`` and ``chainer.utils`` against the real
Chainer 7.8.1. The user-style test modules of ``user_tests/`` run with
pytest under each interpreter: the same test ids must be collected, with
the same outcomes (a failure with the same exception type), and the
tests must record the same observations (parameters, backend configs,
repeat counts, random draws, mock trainer counters). The
``chainer.utils`` cases of ``testing_cases.evaluate`` must agree too.
"""
import sys
from pathlib import Path

import chainer  # Kusari's drop-in
import numpy
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import testing_cases as cases  # NOQA: E402 (on the path set above)

GROUPS = ('user/', 'record/', 'gpu_limit/', 'get_conv_outsize/',
          'get_deconv_outsize/', 'coo/', 'coo_error/', 'experimental/',
          'type_check/')


@pytest.fixture(scope='module')
def oracle(run_oracle):
    return run_oracle('oracle_testing.py', {})


@pytest.fixture(scope='module')
def kusari(tmp_path_factory):
    results = cases.run_user_tests(sys.executable,
                                   tmp_path_factory.mktemp('user_tests'))
    results.update(cases.evaluate(chainer))
    return results


def _case(key):
    """The case a result belongs to: a test id, a record's name, or the
    name after the group (``coo/<case>/data``)."""
    group, rest = key.split('/', 1)
    return rest if group in ('user', 'record', 'gpu_limit') \
        else rest.split('/')[0]


def _known(key):
    """Whether the result belongs to a known difference (a case, or the
    class of a test id)."""
    case = _case(key)
    return (case in cases.KNOWN_DIFFERENCES
            or case.rsplit('::', 1)[0] in cases.KNOWN_DIFFERENCES)


def _assert_same(key, ours, theirs):
    ours = numpy.asarray(ours)
    assert ours.dtype.kind == theirs.dtype.kind, key
    assert ours.shape == theirs.shape, key
    if theirs.dtype.kind == 'f':
        tolerance = ({'rtol': 1e-5, 'atol': 1e-6}
                     if theirs.dtype == numpy.float32
                     else {'rtol': 1e-10, 'atol': 1e-12})
        assert ours.dtype == theirs.dtype, key
        numpy.testing.assert_allclose(ours, theirs, err_msg=key,
                                      **tolerance)
    else:
        numpy.testing.assert_array_equal(ours, theirs, err_msg=key)


@pytest.mark.parametrize('prefix', GROUPS)
def test_same_results(prefix, kusari, oracle):
    ours = {k for k in kusari if k.startswith(prefix) and not _known(k)}
    theirs = {k for k in oracle.files
              if k.startswith(prefix) and not _known(k)}
    assert sorted(ours - theirs) == sorted(theirs - ours) == []
    assert ours
    for key in sorted(theirs):
        _assert_same(key, kusari[key], oracle[key])


def test_known_differences_still_differ(kusari, oracle):
    for case in cases.KNOWN_DIFFERENCES:
        ours = {k for k in kusari if case in (
            _case(k), _case(k).rsplit('::', 1)[0])}
        theirs = {k for k in oracle.files if case in (
            _case(k), _case(k).rsplit('::', 1)[0])}
        assert ours | theirs, case
        assert ours != theirs or any(
            not numpy.array_equal(kusari[k], oracle[k]) for k in ours), case
