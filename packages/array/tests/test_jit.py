"""Numba for generated loops: imported at the first loop, compiled loops
cached on disk, and None where Numba cannot be used."""
import os
import subprocess
import sys

import numpy
import pytest

from kusari.array import jit

SOURCE = '''
def twice_plus(x, y, k):
    for i in range(x.shape[0]):
        y[i] = numpy.float32(2) * x[i] + k
'''


def test_numba_is_imported_at_the_first_loop_only():
    code = ('import sys, kusari.array, kusari.array.jit; '
            'assert "numba" not in sys.modules')
    subprocess.run([sys.executable, '-c', code], check=True)


def test_disabled_jit_gives_none():
    code = ('from kusari.array import jit; '
            'assert jit.numba_module() is None')
    subprocess.run([sys.executable, '-c', code], check=True,
                   env=dict(os.environ, NUMBA_DISABLE_JIT='1'))


@pytest.mark.parametrize('cache', ['writable', 'unwritable'])
def test_compiled_function_runs(cache, tmp_path, monkeypatch):
    pytest.importorskip('numba')
    if jit.numba_module() is None:
        pytest.skip('Numba cannot be used here')
    home = tmp_path / 'cache'
    if cache == 'unwritable':
        home.write_text('a file where the directory would be')
    monkeypatch.setenv('XDG_CACHE_HOME', str(home))
    function = jit.compile_function(SOURCE, 'twice_plus')
    x = numpy.arange(4, dtype=numpy.float32)
    y = numpy.empty_like(x)
    function(x, y, numpy.float32(1))
    numpy.testing.assert_array_equal(y, 2 * x + 1)
    written = list((home / 'kusari' / 'numba').glob('twice_plus_*.py')) \
        if cache == 'writable' else []
    assert len(written) == (cache == 'writable')
