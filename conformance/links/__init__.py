"""Conformance records of the links, one module per family of layers.

Importing this package registers every record of every module in it whose
name does not start with ``test``, so a new family module needs no other
change.
"""
import importlib
import pkgutil

# Sorted: every pytest-xdist worker must collect the same tests in order.
for _module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if not _module.name.startswith('test'):
        importlib.import_module(f'{__name__}.{_module.name}')
