"""Freed array memory stays with the process (glibc's malloc)."""
import os
import subprocess
import sys

import pytest

from kusari.array import _host_memory

pytestmark = pytest.mark.skipif(not _host_memory._is_glibc(),
                                reason="sets glibc's malloc only")

# Steps that allocate eight 1 MiB arrays and free them together, as a
# training step does; prints the page faults of 20 steps after warm-up.
_STEPS = '''
import resource
import numpy
import kusari.array


def step():
    arrays = [numpy.ones(1 << 18, numpy.float32) for _ in range(8)]
    del arrays


for _ in range(3):
    step()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):
    step()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
'''


def _page_faults(**settings):
    environment = {name: value for name, value in os.environ.items()
                   if name not in _host_memory._USER_SETTINGS}
    completed = subprocess.run(
        [sys.executable, '-c', _STEPS], env={**environment, **settings},
        capture_output=True, text=True, check=True)
    return int(completed.stdout)


def test_freed_arrays_are_reused_without_page_faults():
    # Trimmed or unmapped, the 8 MiB would fault 2,048 pages a step.
    assert _page_faults() < 100


def test_malloc_set_by_the_environment_is_kept():
    faults = _page_faults(MALLOC_TRIM_THRESHOLD_=str(128 << 10))
    assert faults > 20 * 1024
