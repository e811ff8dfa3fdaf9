"""Every link class of ``kusari.links.layers`` has a record, or a written
reason for lacking one; every record builds the class it names."""
import inspect

import pytest

from harness.link_record import LINK_RECORDS
from harness.link_record import NO_LINK_SPEC
# Importing the package registers every link record.
import links  # noqa: F401
from kusari.links import layers as L
from kusari.links.link import Link


def _link_classes():
    return sorted(name for name, value in vars(L).items()
                  if inspect.isclass(value) and issubclass(value, Link))


def _recorded():
    return {record.link_name for record in LINK_RECORDS.values()}


def test_link_classes_are_covered():
    missing = [name for name in _link_classes()
               if name not in _recorded() and name not in NO_LINK_SPEC]
    assert not missing, (
        f'link classes of kusari.links.layers with neither a conformance '
        f'record nor a NO_LINK_SPEC reason: {", ".join(missing)}')


def test_no_link_spec_reasons_name_existing_classes():
    stale = sorted(set(NO_LINK_SPEC) - set(_link_classes()))
    assert not stale, (
        f'NO_LINK_SPEC gives reasons for names kusari.links.layers does not '
        f'have: {", ".join(stale)}')


def test_no_link_spec_names_have_no_record():
    both = sorted(_recorded() & set(NO_LINK_SPEC))
    assert not both, (
        f'link classes with a record and a NO_LINK_SPEC reason: '
        f'{", ".join(both)}')


@pytest.mark.parametrize('record', LINK_RECORDS.values(),
                         ids=lambda record: record.name)
def test_record_builds_its_class(record):
    expected = getattr(L, record.link_name, None)
    assert expected is not None, (
        f'{record.name}: kusari.links.layers has no {record.link_name}')
    for builder in (record.build, record.lazy):
        if builder is not None:
            link = builder()
            assert type(link) is expected, (
                f'{record.name}: builds a {type(link).__name__}, not a '
                f'{record.link_name}')
