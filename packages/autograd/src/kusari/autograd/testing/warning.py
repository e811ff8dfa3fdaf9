"""Asserting that a block of code warns."""
import contextlib
import warnings


@contextlib.contextmanager
def assert_warns(expected):
    """Context manager asserting that its block issues a warning of class
    ``expected`` (or a subclass).

    Every warning is recorded, even one filtered out or issued before from
    the same place; none reaches the caller's handlers.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        yield
    if not any(isinstance(w.message, expected) for w in caught):
        name = getattr(expected, '__name__', str(expected))
        raise AssertionError(f'{name} not triggered')
