"""Running tests only where given packages (and versions) are installed,
and patching an object while still calling it."""
import importlib.metadata
import sys
from unittest import mock

from packaging.requirements import InvalidRequirement, Requirement

from kusari.autograd.testing import _annotate


def with_requires(*requirements):
    """Decorator: run the test only when every requirement is satisfied.

    Each requirement is a pip requirement string, such as
    ``'numpy>=2'`` or ``'scipy'``; an unsatisfied one skips the test (or
    every test of a decorated class) with a reason naming them all.
    """
    parsed = _parse('with_requires', requirements)
    reason = f'requires: {",".join(requirements)}'
    return _annotate.annotation(
        None, lambda: None if _all_satisfied(parsed) else reason)


def without_requires(*requirements):
    """Decorator: run the test only when some requirement is unsatisfied.

    The converse of :func:`with_requires`, for testing fallbacks taken
    where a package (or a version of it) is missing.
    """
    parsed = _parse('without_requires', requirements)
    reason = f'runs only without: {",".join(requirements)}'
    return _annotate.annotation(
        None, lambda: reason if _all_satisfied(parsed) else None)


def _parse(caller, requirements):
    if not requirements:
        raise TypeError(f'{caller}: give at least one requirement string')
    parsed = []
    for spec in requirements:
        try:
            parsed.append(Requirement(spec))
        except (InvalidRequirement, TypeError) as error:
            raise ValueError(
                f'{caller}: {spec!r} is not a valid requirement such as '
                f"'numpy>=2' ({error})") from None
    return parsed


def _all_satisfied(requirements):
    return all(_satisfied(r) for r in requirements)


def _satisfied(requirement):
    if requirement.marker is not None and not requirement.marker.evaluate():
        return True  # it does not apply to this environment
    try:
        version = importlib.metadata.version(requirement.name)
    except importlib.metadata.PackageNotFoundError:
        return False
    return requirement.specifier.contains(version, prereleases=True)


def patch(target, *args, **kwargs):
    """``unittest.mock.patch`` of ``target`` by a mock that wraps it.

    The mock records its calls and passes them on to the object it
    replaces (or to ``wraps=`` if given), so a test can check how a
    function is called without changing what it does. ``target`` is a
    dotted name whose module is already imported; the other arguments go
    to ``mock.patch``.
    """
    if 'wraps' not in kwargs:
        kwargs['wraps'] = _resolve(target)
    return mock.patch(target, *args, **kwargs)


def _resolve(target):
    """The object named ``target`` (``module.attribute...``), looked up
    from the imported modules."""
    parts = target.split('.')
    for end in range(len(parts), 0, -1):
        module = sys.modules.get('.'.join(parts[:end]))
        if module is not None:
            break
    else:
        raise ValueError(f'patch: no imported module in {target!r}')
    found = module
    for part in parts[end:]:
        found = getattr(found, part, None)
        if found is None:
            raise ValueError(f'patch: {target!r} names nothing (no '
                             f'{part!r} in {".".join(parts[:end])!r}...)')
    return found
