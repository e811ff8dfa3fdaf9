"""pytest plugin (``-p _outcomes_plugin``) recording what each phase of
each test did, for the comparison: ``[test id, phase, outcome]`` lines in
``outcomes.jsonl`` under ``USER_TESTS_OUT``, the outcome being
``passed``, ``skipped`` or ``failed:<exception class name>``. A module
that fails to import is recorded under its path with phase ``collect``."""
import pytest

import _record


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if call.excinfo is not None:
        report.exception_type = call.excinfo.typename
    return report


def pytest_runtest_logreport(report):
    outcome = report.outcome
    if report.failed:
        outcome = f"failed:{getattr(report, 'exception_type', '?')}"
    _record.add('outcomes', [report.nodeid, report.when, outcome])


def pytest_collectreport(report):
    if report.failed:
        _record.add('outcomes', [report.nodeid, 'collect', 'failed'])
