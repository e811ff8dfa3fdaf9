"""The import rules of the packages (docs/guide/packages.md): a package
imports only public names of another, and no package has an import circle.

Run by the lint session (``nox -s lint``): like ruff, it reads the sources
and installs nothing.
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import import_graph  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MODULES = import_graph.find_modules(ROOT / 'packages')
PACKAGES = sorted({module.package for module in MODULES.values()})


def test_packages_are_found():
    assert {'array', 'autograd', 'chainer', 'training'} <= set(PACKAGES)


def test_no_private_name_crosses_a_package_border():
    crossings = [
        f'{imported.importer.path.relative_to(ROOT)}:{imported.line}: '
        f'{imported.importer.package} imports {imported.spelled}'
        for imported in import_graph.private_crossings(MODULES)]
    assert not crossings, (
        'private names of another package (make what is needed public '
        'in its owner):\n' + '\n'.join(crossings))


# The drop-in's alias table is data, not an import: it may serve a Chainer
# path with a private Kusari module only where Chainer's path must be a
# module and Kusari's public name for it is taken.
PRIVATE_ALIAS_TARGETS = {
    'chainer.dataset.tabular.from_data':
        'kusari.datasets.tabular.from_data is the function, as '
        'chainer.dataset.tabular.from_data is in Chainer',
}


def test_chainer_paths_are_served_by_public_modules():
    aliases = import_graph.alias_table(
        ROOT / 'packages/chainer/src/chainer/_aliases.py')
    private = {alias for alias, target in aliases.items()
               if import_graph.is_private(target)}
    assert private == set(PRIVATE_ALIAS_TARGETS), (
        'Chainer paths served by private Kusari modules, without a reason '
        'in PRIVATE_ALIAS_TARGETS: '
        f'{sorted(private - set(PRIVATE_ALIAS_TARGETS))}; listed but '
        f'public now: {sorted(set(PRIVATE_ALIAS_TARGETS) - private)}')


@pytest.mark.parametrize('package', PACKAGES)
def test_no_import_circle(package):
    graph = import_graph.dependency_graph(MODULES, package)
    circles = [' -> '.join(import_graph.a_cycle(graph, component))
               + f'  ({len(component)} modules: {", ".join(component)})'
               for component in import_graph.strongly_connected(graph)]
    assert not circles, (
        f'import circles in packages/{package}:\n' + '\n'.join(circles))


# The checker itself, on small trees written here.

def _tree(tmp_path, files):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return import_graph.find_modules(tmp_path)


def test_private_names_are_found_in_every_spelling(tmp_path):
    modules = _tree(tmp_path, {
        'low/src/k/low/__init__.py': '',
        'low/src/k/low/_hidden.py': '',
        'low/src/k/low/shown.py': '_name = 1\n__version__ = 1\n',
        'low/src/k/low/_own.py': '',
        'low/src/k/low/user.py': 'from . import _own\n',
        'high/src/k/high/__init__.py': (
            'import k.low._hidden\n'
            'from k.low import _hidden\n'
            'from k.low.shown import _name\n'
            'from k.low.shown import __version__\n'
            'from k.low import shown\n'
            'import os._private_of_another_world\n'
            'def later():\n'
            '    from k.low._hidden import anything\n'),
    })
    found = [(i.line, i.spelled)
             for i in import_graph.private_crossings(modules)]
    assert found == [(1, 'k.low._hidden'), (2, 'k.low._hidden'),
                     (3, 'k.low.shown._name'),
                     (8, 'k.low._hidden.anything')]


def test_private_attributes_of_imported_names_are_found(tmp_path):
    modules = _tree(tmp_path, {
        'low/src/k/low/__init__.py': '',
        'low/src/k/low/shown.py': 'class Thing:\n    _state = 1\n',
        'high/src/k/high/__init__.py': (
            'import k.low.shown\n'
            'from k.low import shown as s\n'
            'from k.low.shown import Thing\n'
            'k.low.shown._helper()\n'
            's._helper\n'
            'Thing._state\n'
            's.Thing.public\n'
            'other._private\n'),
    })
    found = [(i.line, i.spelled)
             for i in import_graph.private_crossings(modules)]
    assert found == [(4, 'k.low.shown._helper'), (5, 'k.low.shown._helper'),
                     (6, 'k.low.shown.Thing._state')]


def test_a_circle_through_a_lazy_relative_import_is_found(tmp_path):
    modules = _tree(tmp_path, {
        'p/src/k/p/__init__.py': '',
        'p/src/k/p/a.py': 'from k.p.sub import b\n',
        'p/src/k/p/sub/__init__.py': '',
        'p/src/k/p/sub/b.py': 'def f():\n    from ..c import name\n',
        'p/src/k/p/c.py': 'import k.p.a\nname = 1\n',
        'p/src/k/p/d.py': 'from k.p import a\n',
    })
    graph = import_graph.dependency_graph(modules, 'p')
    assert graph['k.p.sub.b'] == {'k.p.c'}
    assert import_graph.strongly_connected(graph) == [
        ['k.p.a', 'k.p.c', 'k.p.sub.b']]
    assert import_graph.a_cycle(graph, ['k.p.a', 'k.p.c', 'k.p.sub.b']) \
        == ['k.p.a', 'k.p.sub.b', 'k.p.c', 'k.p.a']


def test_a_name_from_a_package_depends_on_its_init(tmp_path):
    modules = _tree(tmp_path, {
        'p/src/k/p/__init__.py': 'from k.p.a import f\n',
        'p/src/k/p/a.py': 'from k.p import g\ndef f(): pass\n',
    })
    graph = import_graph.dependency_graph(modules, 'p')
    assert import_graph.strongly_connected(graph) == [['k.p', 'k.p.a']]


def test_an_acyclic_package_has_no_circle(tmp_path):
    modules = _tree(tmp_path, {
        'p/src/k/p/__init__.py': 'from k.p import a, b\n',
        'p/src/k/p/a.py': 'from k.p import b\n',
        'p/src/k/p/b.py': 'import numpy\n',
    })
    graph = import_graph.dependency_graph(modules, 'p')
    assert import_graph.strongly_connected(graph) == []
