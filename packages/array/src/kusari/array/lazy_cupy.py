"""Lazy access to CuPy: nothing here imports it until a GPU path asks.

Every package reaches CuPy through these functions, so that importing any
part of Kusari never imports CuPy, and code that classifies arrays (is
this a CuPy array?) does not import it either.
"""
import sys

_state = {}


def cupy_or_none():
    """Return the cupy module if it imports and sees a GPU, else None."""
    if 'cupy' not in _state:
        _state['cupy'], _state['error'] = _try_import()
    return _state['cupy']


def _try_import():
    try:
        import cupy
    except Exception as e:  # ImportError, or a broken CUDA install
        return None, f'CuPy is not installed ({e})'
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:
        return None, f'CuPy is installed but CUDA is unusable ({e})'
    if count == 0:
        return None, 'CuPy is installed but no GPU is present'
    return cupy, None


def unavailable_reason():
    """Why CuPy cannot be used here ('' when it can), as a sentence
    fragment: not installed, CUDA unusable, or no GPU."""
    cupy_or_none()
    return _state['error'] or ''


def require_cupy():
    """Return cupy, or raise RuntimeError saying why it is unavailable."""
    cupy = cupy_or_none()
    if cupy is None:
        raise RuntimeError(
            'CUDA environment is not correctly set up: '
            + unavailable_reason() + '. GPU features need cupy-cuda12x '
            '(pip install "kusari-array[cuda]") and a CUDA GPU.')
    return cupy


def imported_cupy():
    """Return cupy if some code has already imported it, without importing.

    Arrays of a module nobody imported cannot exist, so the hot paths that
    classify arrays use this instead of importing CuPy.
    """
    return sys.modules.get('cupy')


def is_cupy_array(x):
    """Whether ``x`` is a CuPy array (False, without importing CuPy, where
    no code has imported it)."""
    cupy = sys.modules.get('cupy')
    return cupy is not None and isinstance(x, cupy.ndarray)
