"""pytest plugin registering the marks of :mod:`.attr`.

Load it with ``pytest_plugins = ['kusari.autograd.testing._pytest_plugin']``
in a conftest, or through the ``pytest11`` entry point, so that the marks
are known (no warning, and ``--strict-markers`` accepts them).
"""

MARKERS = (
    'gpu: needs a CUDA GPU (skipped where CuPy or a GPU is missing)',
    'cudnn: needs cuDNN (skipped where it is missing)',
    'slow: takes long; deselect with -m "not slow"',
    'chainerx: needs ChainerX (always skipped: not part of Kusari)',
    'ideep: needs iDeep (always skipped: not part of Kusari)',
)


def pytest_configure(config):
    for marker in MARKERS:
        config.addinivalue_line('markers', marker)
