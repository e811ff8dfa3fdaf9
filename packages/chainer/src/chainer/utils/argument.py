"""Keyword-argument parsing for functions that take ``**kwargs``.

Code written for Chainer uses these to accept options by keyword only and
to reject arguments Chainer removed with a message saying what replaced
them.
"""
import sys


def check_unexpected_kwargs(kwargs, **unexpected):
    """Raise ValueError with ``unexpected[name]`` as the message for the
    first ``name`` of ``unexpected`` found in ``kwargs``."""
    for name, message in unexpected.items():
        if name in kwargs:
            raise ValueError(message)


def parse_kwargs(kwargs, *name_and_values, **unexpected):
    """Pop the ``(name, default)`` pairs from ``kwargs`` and return their
    values in order; raise for what is left (ValueError with its message
    for a name in ``unexpected``, else TypeError naming the caller)."""
    values = tuple(kwargs.pop(name, default)
                   for name, default in name_and_values)
    if kwargs:
        check_unexpected_kwargs(kwargs, **unexpected)
        _reject(kwargs, sys._getframe(1).f_code.co_name)
    return values


def assert_kwargs_empty(kwargs):
    """Raise TypeError naming the caller if ``kwargs`` is not empty."""
    if kwargs:
        _reject(kwargs, sys._getframe(1).f_code.co_name)


def _reject(kwargs, caller):
    names = ', '.join(repr(name) for name in sorted(kwargs))
    raise TypeError(f'{caller}() got unexpected keyword argument(s) {names}')
