"""Options, Hypothesis profiles and the device fixture of the conformance
suite.

``--device=numpy|cuda`` picks where every check runs; ``--thorough``
trades the fast, reproducible CI profile for many random examples;
``--no-shrink`` keeps CI's examples but reports a failure unshrunk, in every
Hypothesis test of the run (for mutation testing, where a failure found is
all that counts); ``--records=relu,relu6`` collects only those function
records.
"""
import sys
from pathlib import Path

import pytest

# The harness and the records are plain packages beside this file.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import profiles  # noqa: E402
from harness import record  # noqa: E402

DEVICES = {'numpy': '@numpy', 'cuda': '@cupy:0'}


def pytest_addoption(parser):
    group = parser.getgroup('conformance')
    group.addoption('--device', choices=sorted(DEVICES), default='numpy',
                    help='device the conformance checks run on')
    group.addoption('--thorough', action='store_true',
                    help='many random Hypothesis examples instead of the '
                         'few reproducible ones of CI')
    group.addoption('--no-shrink', action='store_true',
                    help='report a failing Hypothesis example without '
                         'shrinking it, in every test of the run')
    group.addoption('--records', metavar='NAMES',
                    help='collect only these function records '
                         '(comma-separated names): a short startup')


def pytest_configure(config):
    # Defaults too: a run from the repository root, without this directory
    # in its arguments, loads this file after parsing the options.
    if config.getoption('--no-shrink', False):
        profiles.choose('no-shrink')
    else:
        profiles.choose(
            'thorough' if config.getoption('--thorough', False) else 'ci')
    names = config.getoption('--records', None)
    record.choose(None if names is None else names.split(','))


@pytest.fixture(scope='session')
def device(request):
    """The kusari.array Device of ``--device``; skips, saying why, where
    CUDA is unusable."""
    from kusari.array import lazy_cupy
    from kusari.array import backend
    name = request.config.getoption('--device', 'numpy')
    if name == 'cuda':
        try:
            lazy_cupy.require_cupy()
        except RuntimeError as error:
            pytest.skip(str(error))
    return backend.get_device(DEVICES[name])
