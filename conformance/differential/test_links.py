"""Kusari's links against the real Chainer 7.8.1, on fixed inputs.

Runs only where ``KUSARI_ORACLE_PYTHON`` names an interpreter with
Chainer 7.8.1 installed. Each case of ``link_cases.CASES`` runs here
first; its inputs, output gradients and Kusari's initial state (lazy
parameters included) go to ``oracle_links.py``, which loads that state
into Chainer's link and runs the same step. Structures, saved keys,
outputs, gradients and the state after the step must agree, and the
.npz file Chainer saves after the step must load into Kusari's link.
"""
import sys
import zlib
from pathlib import Path

import chainer
import numpy
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import link_cases as cases  # NOQA: E402 (on the path set above)

TOLERANCE = {'float16': {'atol': 1e-3, 'rtol': 1e-2},
             'mixed16': {'atol': 1e-3, 'rtol': 1e-2},
             'float32': {'atol': 1e-6, 'rtol': 1e-5},
             'float64': {'atol': 1e-12, 'rtol': 1e-10}}
COMPARED = sorted(set(cases.CASES) - set(cases.KNOWN_DIFFERENCES))
SENT = ('initial/', 'gy/', 'own/')


def _kusari_run(case):
    """Kusari's inputs and results of ``case`` (or the error raised),
    drawn from a generator seeded by the case's name alone."""
    rng = numpy.random.RandomState(zlib.crc32(case.encode()))
    arrays = cases.draw(rng, case)

    def grad_outputs(shapes):
        return [rng.uniform(-1, 1, shape).astype(dtype)
                for shape, dtype in shapes]

    try:
        return arrays, cases.evaluate(chainer, case, arrays, None,
                                      grad_outputs)
    except Exception as error:
        return arrays, f'{type(error).__name__}: {error}'


@pytest.fixture(scope='module')
def runs(run_oracle):
    """``{case: (inputs, Kusari's results or its error)}`` and Chainer's
    results."""
    kusari = {case: _kusari_run(case) for case in COMPARED}
    shared = {}
    for case, (arrays, results) in kusari.items():
        if isinstance(results, str):
            continue
        shared.update({f'{case}/in/{k}': v for k, v in arrays.items()})
        shared.update({f'{case}/state/{k[8:]}': v
                       for k, v in results.items()
                       if k.startswith('initial/')})
        shared.update({f'{case}/{k}': v for k, v in results.items()
                       if k.startswith('gy/')})
    return kusari, run_oracle('oracle_links.py', shared)


def test_known_differences_are_cases():
    assert set(cases.KNOWN_DIFFERENCES) <= set(cases.CASES) | {
        f'init:{name}' for name in cases.INIT_CASES}


def test_every_link_has_a_case():
    """Every link class of ``chainer.links`` is built by some case, but
    the pretrained-model wrappers (CaffeFunction and TheanoFunction are
    not Links of ``chainer.links``' top level)."""
    pretrained = {'GoogLeNet', 'ResNet50Layers', 'ResNet101Layers',
                  'ResNet152Layers', 'VGG16Layers', 'VGG19Layers'}
    built = ' '.join(spec['build'] for spec in cases.CASES.values())
    links = {name for name, value in vars(chainer.links).items()
             if isinstance(value, type) and issubclass(value, chainer.Link)}
    assert {name for name in links - pretrained
            if f'L.{name}(' not in built} == set()


@pytest.mark.parametrize('case', COMPARED)
def test_link(runs, case):
    kusari, oracle = runs
    _, ours = kusari[case]
    assert not isinstance(ours, str), f'Kusari raised {ours}'
    theirs = cases.unpack_case(oracle, case)
    assert 'error' not in theirs, f"Chainer raised {theirs['error']}"
    mine = {k: v for k, v in ours.items() if not k.startswith(SENT)}
    theirs = {k: v for k, v in theirs.items() if not k.startswith(SENT)}
    assert sorted(mine) == sorted(theirs)
    spec = cases.CASES[case]
    tolerance = spec['tolerance'] or TOLERANCE[spec['dtype']]
    for key, expected in theirs.items():
        actual = mine[key]
        if expected.dtype.kind in 'US':
            numpy.testing.assert_array_equal(actual, expected, err_msg=key)
            continue
        assert actual.dtype == expected.dtype, key
        assert actual.shape == expected.shape, key
        numpy.testing.assert_allclose(actual, expected, err_msg=key,
                                      **tolerance)


@pytest.mark.parametrize('case', COMPARED)
def test_chainer_npz_loads(runs, case, tmp_path):
    """Chainer's state after the step, saved by ``save_npz``, loads into
    Kusari's link with ``load_npz`` and gives the same arrays back."""
    kusari, oracle = runs
    arrays, ours = kusari[case]
    assert not isinstance(ours, str), f'Kusari raised {ours}'
    final = cases.unpack(oracle, case, 'final')
    path = tmp_path / 'chainer.npz'
    numpy.savez(path, **final)
    link, _ = cases.build(chainer, case, arrays)
    chainer.serializers.load_npz(str(path), link)
    loaded = cases.state_of(chainer, link)
    assert sorted(loaded) == sorted(final)
    for key, value in final.items():
        numpy.testing.assert_array_equal(loaded[key], value, err_msg=key)


@pytest.mark.parametrize('case', COMPARED)
def test_deterministic_initial_values(runs, case):
    """Where Chainer's initial state does not depend on the random seed
    (biases, constant initializers, running statistics), Kusari's is the
    same."""
    kusari, oracle = runs
    _, ours = kusari[case]
    assert not isinstance(ours, str), f'Kusari raised {ours}'
    tolerance = TOLERANCE[cases.CASES[case]['dtype']]
    for key, expected in cases.unpack(oracle, case, 'own').items():
        actual = ours[f'initial/{key}']
        assert actual.dtype == expected.dtype, key
        numpy.testing.assert_allclose(actual, expected, err_msg=key,
                                      **tolerance)


@pytest.mark.parametrize('name', sorted(
    set(cases.INIT_CASES) -
    {key[5:] for key in cases.KNOWN_DIFFERENCES if key.startswith('init:')}))
def test_initial_distribution(runs, name):
    """The random initial parameters have Chainer's distribution: the
    same moments up to the sampling error (6 standard errors of each
    estimate, for normal draws: the sizes are 10^3 to 10^5)."""
    _, oracle = runs
    start = f'init:{name}'
    theirs = {key[len(start):]: oracle[key] for key in oracle.files
              if key.startswith(start + '/')}
    ours = cases.init_moments(chainer, name)
    assert sorted(ours) == sorted(theirs)
    for path, (mean, std, kurtosis, size) in theirs.items():
        actual = ours[path]
        assert actual[3] == size, path
        error = 6 / numpy.sqrt(size)
        numpy.testing.assert_allclose(actual[0], mean, err_msg=path,
                                      atol=error * std + 1e-12)
        numpy.testing.assert_allclose(actual[1], std, err_msg=path,
                                      rtol=error, atol=1e-12)
        numpy.testing.assert_allclose(actual[2], kurtosis, err_msg=path,
                                      atol=error * 5)
