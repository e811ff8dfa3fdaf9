"""Test-class generation shared by the class decorators that stack.

``parameterize`` and ``inject_backend_tests`` each turn one test class into
several subclasses, added to the class's module under generated names. The
decorator's result is a :class:`Bundle` of those subclasses (not a class, so
pytest and unittest collect only the generated ones), which an outer
decorator expands again: stacked decorators multiply.
"""
import inspect
import sys

_BUNDLE_ATTRIBUTE = '_kusari_testing_bundle'


class Bundle:
    """The test classes one decorator generated from one decorated name.

    Attributes:
        name: the name the decorated class was defined under.
        classes: the generated classes, each also an attribute of its
            module.
    """

    def __init__(self, name, classes):
        self.name = name
        self.classes = classes

    def __repr__(self):
        names = ', '.join(c.__name__ for c in self.classes)
        return f'<generated test classes of {self.name}: {names}>'


def bundle_of(target):
    """The Bundle ``target`` stands for, or None for a plain class."""
    if isinstance(target, Bundle):
        return target
    if isinstance(target, type):
        return vars(target).get(_BUNDLE_ATTRIBUTE)
    return None


def make_decorator(decorator_name, generate):
    """A class decorator generating test classes with ``generate(base)``.

    ``generate`` yields ``(class_name, members, transform_test)`` for each
    class to make from ``base``: the new class subclasses ``base``, gets
    ``members``, and each of its test methods is replaced by
    ``transform_test(name, method)`` (None removes the test).

    When one generated class keeps the decorated name, it is returned (so
    that the module keeps it under that name) carrying the bundle; otherwise
    the Bundle itself is.
    """
    def decorator(target):
        bundle = bundle_of(target)
        if bundle is not None:
            name, bases = bundle.name, bundle.classes
            for base in bases:
                _remove_from_module(base)
        elif isinstance(target, type):
            name, bases = target.__name__, [target]
        else:
            raise TypeError(
                f'{decorator_name}: expected a test class (or the result of '
                f'another test-generating decorator), got {target!r}')
        classes = [_make_class(base, *case)
                   for base in bases for case in generate(base)]
        result = Bundle(name, classes)
        for cls in classes:
            if cls.__name__ == name:
                setattr(cls, _BUNDLE_ATTRIBUTE, result)
                return cls
        return result
    return decorator


def for_each_class(target, decorate):
    """Apply a class decorator to ``target``, or to each class it bundles.

    Returns what stays bound to the decorated name.
    """
    bundle = bundle_of(target)
    if bundle is None:
        return decorate(target)
    for cls in bundle.classes:
        decorate(cls)
    return target


def wrap_tests(cls, wrap, also=()):
    """Replace each test method of ``cls`` (and the methods named in
    ``also``, where present) with ``wrap(method)``."""
    for name in dir(cls):
        method = getattr(cls, name)
        if inspect.isfunction(method) and (is_test_name(name)
                                           or name in also):
            setattr(cls, name, wrap(method))


def is_test_name(name):
    """Whether pytest and unittest collect a method of this name."""
    return name.startswith('test')


def _make_class(base, class_name, members, transform_test):
    members = dict(members)
    members['__module__'] = base.__module__
    members['__qualname__'] = class_name
    for name, method in inspect.getmembers(base, inspect.isfunction):
        if is_test_name(name):
            members[name] = transform_test(name, method)
    cls = type(class_name, (base,), members)
    setattr(sys.modules[base.__module__], class_name, cls)
    return cls


def _remove_from_module(cls):
    module = sys.modules[cls.__module__]
    if getattr(module, cls.__name__, None) is cls:
        delattr(module, cls.__name__)
