"""Pytest setup shared by every test directory of the repository."""

MARKERS = {
    'gpu': 'needs CuPy and a CUDA GPU (skipped where absent)',
    'multi_gpu': 'needs several CUDA GPUs (skipped where absent)',
    'cudnn': 'needs cuDNN (never present: CuPy 14 has none)',
    'slow': 'takes more than a few seconds',
    'chainerx': 'ChainerX backend: not part of Kusari (always skipped)',
    'ideep': 'iDeep backend: not part of Kusari (always skipped)',
}


def pytest_addoption(parser):
    parser.addoption('--run-slow', action='store_true',
                     help='also run the tests marked slow')


def pytest_configure(config):
    for name, text in MARKERS.items():
        config.addinivalue_line('markers', f'{name}: {text}')


def pytest_collection_modifyitems(config, items):
    import pytest
    reasons = {}
    run_slow = config.getoption('--run-slow')
    for item in items:
        if 'slow' in item.keywords and not run_slow:
            item.add_marker(pytest.mark.skip(
                reason='slow: run with --run-slow'))
        elif 'chainerx' in item.keywords or 'ideep' in item.keywords:
            item.add_marker(pytest.mark.skip(
                reason='backend not part of Kusari'))
        elif 'cudnn' in item.keywords:
            item.add_marker(pytest.mark.skip(reason='cuDNN is not used'))
        elif 'gpu' in item.keywords or 'multi_gpu' in item.keywords:
            needed = 2 if 'multi_gpu' in item.keywords else 1
            if needed not in reasons:
                reasons[needed] = _gpus_unavailable_reason(needed)
            if reasons[needed]:
                item.add_marker(pytest.mark.skip(reason=reasons[needed]))


def _gpus_unavailable_reason(needed):
    """Why ``needed`` CUDA GPUs cannot be used here ('' when they can)."""
    try:
        from kusari.array import lazy_cupy
    except ImportError:  # a package tested alone without kusari-array
        return 'kusari-array (the CUDA support) is not installed'
    cupy = lazy_cupy.cupy_or_none()
    if cupy is None:
        return lazy_cupy.unavailable_reason()
    count = cupy.cuda.runtime.getDeviceCount()
    if count < needed:
        return f'needs {needed} CUDA GPUs, this machine has {count}'
    return ''
