"""Fixtures of the testing-utility tests: a scratch module for generated
classes, and running pytest on a generated test module in a fresh process
to read each test's outcome."""
import subprocess
import sys
import textwrap
import types
import xml.etree.ElementTree as ElementTree

import pytest

MODULE = 'test_generated'


class Outcomes(dict):
    """``{'Class::test' or 'test': (outcome, message)}`` of one run."""

    def of(self, outcome):
        return sorted(test for test, (o, _) in self.items() if o == outcome)


@pytest.fixture
def module():
    """A scratch module receiving generated test classes."""
    scratch = types.ModuleType('kusari_scratch_tests')
    sys.modules[scratch.__name__] = scratch
    yield scratch
    del sys.modules[scratch.__name__]


@pytest.fixture
def run_pytest(tmp_path, monkeypatch):
    """Run pytest on a module of the given source; return its Outcomes.

    ``env`` entries are set in the child's environment.
    """
    def run(source, *args, env=None):
        (tmp_path / 'conftest.py').write_text(
            "pytest_plugins = ['kusari.autograd.testing._pytest_plugin']\n")
        (tmp_path / f'{MODULE}.py').write_text(textwrap.dedent(source))
        for key, value in (env or {}).items():
            monkeypatch.setenv(key, value)
        report = tmp_path / 'report.xml'
        subprocess.run(
            [sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider',
             '--strict-markers', f'--junitxml={report}', *args,
             str(tmp_path / f'{MODULE}.py')],
            cwd=tmp_path, capture_output=True, text=True, timeout=120)
        return _read(report)
    return run


def _read(report):
    outcomes = Outcomes()
    for case in ElementTree.parse(report).iter('testcase'):
        owner = case.get('classname').removeprefix(MODULE).lstrip('.')
        test = f'{owner}::{case.get("name")}' if owner else case.get('name')
        outcome, message = 'passed', ''
        for tag in ('skipped', 'failure', 'error'):
            element = case.find(tag)
            if element is not None:
                outcome = tag
                message = (element.get('message', '') + '\n'
                           + (element.text or ''))
        outcomes[test] = (outcome, message)
    return outcomes
