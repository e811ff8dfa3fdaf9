"""Annotations of tests that need hardware, a backend, or much time.

Each decorator applies a pytest mark of its name (``gpu``, ``cudnn``,
``slow``, ``chainerx``, ``ideep``; ``multi_gpu`` marks ``gpu``), so
``-m 'not gpu'`` deselects as in Chainer. Unlike Chainer, a test whose
hardware is missing skips with the reason instead of failing; the
environment variable ``CHAINER_TEST_GPU_LIMIT`` (a number of GPUs) still
skips tests that need more GPUs than it allows.
"""
import os

import pytest

from kusari.array import lazy_cupy
from kusari.autograd.testing import _annotate

_GPU_LIMIT_VARIABLE = 'CHAINER_TEST_GPU_LIMIT'


def _gpu_limit():
    raw = os.environ.get(_GPU_LIMIT_VARIABLE, '-1')
    try:
        return int(raw)
    except ValueError:
        raise ValueError(
            f'environment variable {_GPU_LIMIT_VARIABLE} must be an integer '
            f'(a number of GPUs, or -1 for no limit), got {raw!r}') from None


def _missing_gpus(count):
    """Why ``count`` GPUs are not available, or None if they are."""
    limit = _gpu_limit()
    if 0 <= limit < count:
        return (f'{count} GPU(s) required, but {_GPU_LIMIT_VARIABLE}='
                f'{limit}')
    try:
        cupy = lazy_cupy.require_cupy()
    except RuntimeError as error:
        return str(error)
    present = cupy.cuda.runtime.getDeviceCount()
    if present < count:
        return f'{count} GPUs required, {present} present'
    return None


def _missing_cudnn():
    reason = _missing_gpus(1)
    if reason is not None:
        return reason
    try:
        import cupy.cuda.cudnn  # NOQA: F401 (loads libcudnn or fails)
    except Exception as error:
        return f'cuDNN is not available ({error})'
    return None


def _removed_backend(name, why):
    return _annotate.annotation(
        getattr(pytest.mark, name.lower()),
        lambda: f'{name} is not part of Kusari ({why})')


def multi_gpu(gpu_num):
    """Decorator: the test needs ``gpu_num`` GPUs (marked ``gpu``)."""
    if not isinstance(gpu_num, int) or gpu_num < 1:
        raise ValueError(
            f'multi_gpu: gpu_num must be a positive int, got {gpu_num!r}')
    return _annotate.annotation(pytest.mark.gpu,
                                lambda: _missing_gpus(gpu_num))


gpu = multi_gpu(1)
gpu.__doc__ = 'Decorator: the test needs one GPU (marked ``gpu``).'

cudnn = _annotate.annotation(pytest.mark.cudnn, _missing_cudnn)
cudnn.__doc__ = 'Decorator: the test needs cuDNN (marked ``cudnn``).'

slow = _annotate.annotation(pytest.mark.slow)
slow.__doc__ = "Decorator: the test is slow; ``-m 'not slow'`` deselects it."

chainerx = _removed_backend('ChainerX', 'arrays are NumPy or CuPy')
chainerx.__doc__ = ('Decorator: the test needs ChainerX (marked '
                    '``chainerx``); always skipped in Kusari.')

ideep = _removed_backend('iDeep', 'it is not maintained for NumPy 2')
ideep.__doc__ = ('Decorator: the test needs iDeep (marked ``ideep``); '
                 'always skipped in Kusari.')
