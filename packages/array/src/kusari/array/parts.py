"""The parts of the ``kusari`` namespace: their versions, and an error that
says what to install when a part is missing.

Each part is its own distribution (``kusari.links`` is ``kusari-links``),
versioned in its ``pyproject.toml`` alone; at run time the version is read
from the installed metadata.  ``kusari`` itself is a namespace package with
no code, so ``import kusari.links`` without kusari-links installed would end
in Python's bare ``No module named 'kusari.links'``; once any part that
needs kusari-array is imported, :func:`install_missing_part_finder` makes
that error name the distribution and the pip line that installs it.
"""
import importlib.abc
import sys

#: Each part (its directory under ``packages/``) and the parts its install
#: line names, the part itself last: its Kusari dependencies, transitively,
#: each after what it needs (checked against the pyproject.toml files by
#: the tests of kusari-array).
INSTALL_LINES = {
    'array': ('array',),
    'autograd': ('array', 'autograd'),
    'datasets': ('array', 'datasets'),
    'serializers': ('serializers',),
    'links': ('array', 'autograd', 'links'),
    'distributions': ('array', 'autograd', 'distributions'),
    'onnx': ('array', 'autograd', 'onnx'),
    'training': ('array', 'autograd', 'links', 'datasets', 'serializers',
                 'training'),
    'distributed': ('array', 'autograd', 'links', 'datasets', 'serializers',
                    'training', 'distributed'),
}


def module_getattr(module_name, distribution):
    """A module ``__getattr__`` (PEP 562) that serves ``__version__``.

    The version is the installed ``distribution``'s, read on first use:
    importing :mod:`importlib.metadata` and scanning the installed
    distributions costs tens of milliseconds that an import of a part
    should not pay.

    Args:
        module_name (str): the module's ``__name__`` (for error messages).
        distribution (str): its distribution, e.g. ``'kusari-links'``.

    Returns:
        A function of an attribute name, to be bound as ``__getattr__``.
    """
    def __getattr__(name):
        if name == '__version__':
            import importlib.metadata
            try:
                return importlib.metadata.version(distribution)
            except importlib.metadata.PackageNotFoundError:
                raise AttributeError(
                    f'{module_name} has no __version__: {distribution} is '
                    f'not installed (its sources are imported directly)'
                ) from None
        raise AttributeError(
            f'module {module_name!r} has no attribute {name!r}')
    return __getattr__


def missing_part_message(part):
    """What to tell a user whose ``import kusari.<part>`` found nothing."""
    line = ' '.join(f'packages/{name}' for name in INSTALL_LINES[part])
    return (f"No module named 'kusari.{part}': it is the package "
            f'kusari-{part}, which is not installed. From a clone of Kusari, '
            f'install it with the Kusari packages it needs: pip install '
            f'{line}')


class _MissingPartFinder(importlib.abc.MetaPathFinder):
    """Last on ``sys.meta_path``: asked only when no finder found a module,
    it turns the failed import of a known part into an error naming the
    distribution."""

    def find_spec(self, fullname, path=None, target=None):
        namespace, _, part = fullname.partition('.')
        if namespace == 'kusari' and part in INSTALL_LINES:
            raise ModuleNotFoundError(missing_part_message(part),
                                      name=fullname)
        return None


def install_missing_part_finder():
    """Append the finder of missing parts to ``sys.meta_path`` (once)."""
    if not any(isinstance(f, _MissingPartFinder) for f in sys.meta_path):
        sys.meta_path.append(_MissingPartFinder())
