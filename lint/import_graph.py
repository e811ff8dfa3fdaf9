"""The import graph of the packages under ``packages/``, read with ``ast``.

Two rules of the architecture are checked on it (lint/test_imports.py):

- a package imports only public names of another: no dotted component of
  what it imports, and not the imported name, starts with ``_`` (dunder
  names such as ``__version__`` are public); nor does it read a private
  attribute of what it imported (``module._helper``, ``Class._state``);
- no import circle inside a package.

Every ``import`` statement counts, at module level or inside a function or
a class: a lazy import is still a dependency, only a deferred one. The
tests of a package (``packages/<name>/tests``) are not part of it here:
they may reach into what they test.
Standard library only, so that it runs without installing anything.
"""
import ast
import dataclasses
from pathlib import Path


@dataclasses.dataclass(frozen=True)
class Module:
    """A source file: its dotted name, path and package directory."""

    name: str
    path: Path
    package: str
    is_package: bool


@dataclasses.dataclass(frozen=True)
class Import:
    """One imported thing: ``target`` is the module it loads; ``name`` is
    the name taken from it (``from target import name``), else None. An
    attribute read of an imported name is one too, spelled in full in
    ``target`` (``kusari.array.cuda.some_helper``)."""

    importer: Module
    line: int
    target: str
    name: str | None

    @property
    def spelled(self):
        return self.target if self.name is None else (
            f'{self.target}.{self.name}')


def find_modules(packages_dir):
    """Every module of ``packages_dir/<package>/src``, by dotted name."""
    modules = {}
    for source in sorted(Path(packages_dir).glob('*/src')):
        package = source.parent.name
        for path in sorted(source.rglob('*.py')):
            parts = path.relative_to(source).with_suffix('').parts
            is_package = parts[-1] == '__init__'
            if is_package:
                parts = parts[:-1]
            name = '.'.join(parts)
            modules[name] = Module(name, path, package, is_package)
    return modules


def _resolve_relative(importer, level, module):
    """The absolute module name of ``from <level dots><module> import``."""
    parts = importer.name.split('.')
    if not importer.is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[:len(parts) - (level - 1)]
    if module:
        parts = [*parts, *module.split('.')]
    return '.'.join(parts)


def _parse(module):
    return ast.parse(module.path.read_bytes(), str(module.path))


def imports_of(module, tree=None):
    """The imports written in ``module``, in the order they appear."""
    tree = _parse(module) if tree is None else tree
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(Import(module, node.lineno, alias.name, None)
                         for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = node.module or ''
            if node.level:
                target = _resolve_relative(module, node.level, node.module)
            found.extend(Import(module, node.lineno, target, alias.name)
                         for alias in node.names)
    return sorted(found, key=lambda i: i.line)


def _dotted(node):
    """``a.b.c`` of an attribute chain on a plain name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return '.'.join([node.id, *reversed(parts)])


def uses_of(module):
    """What ``module`` takes from elsewhere: its imports, and the
    attributes it reads of what it imported (``ftc._check`` after
    ``import ... as ftc``), each spelled in full."""
    tree = _parse(module)
    found = imports_of(module, tree)
    bound = {}  # local name -> the dotted name it was imported as
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    first = alias.name.split('.')[0]
                    bound[first] = first
        elif isinstance(node, ast.ImportFrom):
            target = node.module or ''
            if node.level:
                target = _resolve_relative(module, node.level, node.module)
            for alias in node.names:
                bound[alias.asname or alias.name] = f'{target}.{alias.name}'
    for node in ast.walk(tree):
        dotted = _dotted(node) if isinstance(node, ast.Attribute) else None
        if dotted is None:
            continue
        base, _, rest = dotted.partition('.')
        if base in bound:
            found.append(Import(module, node.lineno,
                                f'{bound[base]}.{rest}', None))
    return sorted(found, key=lambda i: i.line)


def is_private(dotted):
    """Whether a dotted name has a component that starts with ``_`` (and
    is not a dunder such as ``__version__``)."""
    return any(part.startswith('_') and not (
        part.startswith('__') and part.endswith('__'))
        for part in dotted.split('.'))


def owner(dotted, modules):
    """The module a dotted import path lands in: the longest prefix of it
    that is a module of ``modules`` (None outside packages/)."""
    parts = dotted.split('.')
    for end in range(len(parts), 0, -1):
        module = modules.get('.'.join(parts[:end]))
        if module is not None:
            return module
    return None


def private_crossings(modules):
    """Private names of one package that another imports, or reads as an
    attribute of what it imported."""
    crossings = []
    for module in modules.values():
        for imported in uses_of(module):
            landing = owner(imported.spelled, modules)
            if (landing is not None and landing.package != module.package
                    and is_private(imported.spelled)):
                crossings.append(imported)
    return crossings


def alias_table(path):
    """The ``ALIASES = {...}`` dict literal of the drop-in's alias module
    (Chainer path -> Kusari module), read without importing it."""
    tree = ast.parse(Path(path).read_bytes(), str(path))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [
                getattr(t, 'id', None) for t in node.targets] == ['ALIASES']:
            return ast.literal_eval(node.value)
    raise ValueError(f'{path} assigns no ALIASES literal')


def dependency_graph(modules, package):
    """Module -> the modules of the same package it imports.

    ``from a import b`` depends on ``a.b`` where that is a module, else on
    ``a``, the package that defines ``b``.
    """
    own = {name: m for name, m in modules.items() if m.package == package}
    graph = {name: set() for name in own}
    for name, module in own.items():
        for imported in imports_of(module):
            landing = owner(imported.spelled, own)
            if landing is not None and landing.name != name:
                graph[name].add(landing.name)
    return graph


def strongly_connected(graph):
    """The strongly connected components of more than one node (Tarjan),
    each sorted, in sorted order."""
    index, low, on_stack, stack, components = {}, {}, set(), [], []

    def visit(start):
        # Iterative: a deep package must not hit the recursion limit.
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components)


def a_cycle(graph, component):
    """One closed path through the first member of ``component``, kept
    inside it (breadth first, so the shortest): ``[a, b, ..., a]``."""
    members = set(component)
    start = component[0]
    previous = {start: None}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for successor in sorted(graph[node] & members):
                if successor == start:
                    path = [node]
                    while previous[path[-1]] is not None:
                        path.append(previous[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if successor not in previous:
                    previous[successor] = node
                    following.append(successor)
        frontier = following
    raise ValueError(f'{component} is not strongly connected')
