"""Conformance records, one module per family of functions.

Importing this package registers every record of every module in it, so a
new family module needs no other change.
"""
import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f'{__name__}.{_module.name}')
