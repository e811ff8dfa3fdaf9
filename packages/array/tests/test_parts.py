import importlib
import importlib.metadata
import importlib.util
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import kusari
import kusari.array
from kusari.array import parts

PACKAGES = Path(__file__).resolve().parents[2]


def test_version_is_the_installed_distributions():
    assert kusari.array.__version__ == \
        importlib.metadata.version('kusari-array')


def test_other_attributes_still_raise_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        kusari.array.nope
    assert getattr(kusari.array, 'nope', None) is None


def test_version_of_a_module_not_installed_is_an_attribute_error():
    getattr_ = parts.module_getattr('kusari.nothing', 'kusari-nothing')
    with pytest.raises(AttributeError, match='kusari-nothing is not '
                       'installed'):
        getattr_('__version__')


@pytest.fixture
def no_part_installed(monkeypatch):
    """``kusari`` with no portion on its path, so that no part not yet
    imported can be found (as where only kusari-array is installed)."""
    monkeypatch.setattr(kusari, '__path__', [])
    for name in list(sys.modules):
        if name == 'kusari.links' or name.startswith('kusari.links.'):
            monkeypatch.delitem(sys.modules, name)


def test_a_missing_part_names_its_distribution(no_part_installed):
    with pytest.raises(ModuleNotFoundError) as raised:
        importlib.import_module('kusari.links')
    assert raised.value.name == 'kusari.links'
    message = str(raised.value)
    assert 'kusari-links, which is not installed' in message
    assert message.endswith(
        'pip install packages/array packages/autograd packages/links')


def test_an_unknown_name_is_pythons_plain_error(no_part_installed):
    assert importlib.util.find_spec('kusari.linkz') is None
    with pytest.raises(ModuleNotFoundError, match="^No module named "
                       "'kusari.linkz'$"):
        importlib.import_module('kusari.linkz')


def _local_requirements(directory):
    """The local packages (directory names) ``directory``'s pyproject
    requires, extras aside."""
    tomllib = pytest.importorskip('tomllib')
    with (PACKAGES / directory / 'pyproject.toml').open('rb') as file:
        project = tomllib.load(file)['project']
    names = (Requirement(r).name for r in project.get('dependencies', ()))
    return {n.removeprefix('kusari-') for n in names
            if n.startswith('kusari-')}


@pytest.mark.skipif(not (PACKAGES / 'links' / 'pyproject.toml').exists(),
                    reason='packages/ is not beside this package')
def test_install_lines_follow_the_pyprojects():
    directories = {p.parent.name for p in PACKAGES.glob('*/pyproject.toml')}
    assert set(parts.INSTALL_LINES) == directories - {'chainer'}
    for part, line in parts.INSTALL_LINES.items():
        assert line[-1] == part
        needed = set()
        for position, name in enumerate(line):
            requires = _local_requirements(name)
            # Each after what it needs, and nothing more than that.
            assert requires <= set(line[:position]), (part, name)
            needed |= requires
        assert needed == set(line[:-1]), part
